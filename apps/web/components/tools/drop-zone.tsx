'use client';

import { useTranslations } from 'next-intl';
import { useRef, useState } from 'react';
import type { DragEvent } from 'react';
import styles from './tools.module.css';

// Where files come in (decision 0019): dropped anywhere on the zone or picked with the button; a
// click on the zone itself opens the picker too. `isCompact` once the list has files.

function UploadGlyph({ size }: { readonly size: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 48 48"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.4"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M14 34h-2.5a8.5 8.5 0 0 1-1.2-16.9A12 12 0 0 1 33.6 13a9.5 9.5 0 0 1 2.9 18.6" />
      <path d="M24 40V22M17 28.5l7-7 7 7" />
    </svg>
  );
}

export function DropZone({
  accept,
  kinds,
  hint,
  isCompact,
  onFiles,
}: {
  /** The input's `accept` (`.dwg,.dxf`). */
  readonly accept: string;
  /** The types as people read them (`DWG/DXF`). */
  readonly kinds: string;
  readonly hint: string;
  readonly isCompact: boolean;
  readonly onFiles: (files: File[]) => void;
}) {
  const t = useTranslations('tools.workbench');
  const input = useRef<HTMLInputElement>(null);
  // dragenter and dragleave fire for every child crossed: count them to know when the drag left.
  const depth = useRef(0);
  const [isOver, setIsOver] = useState(false);

  const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files');

  function enter(event: DragEvent<HTMLDivElement>) {
    if (!hasFiles(event)) return;
    event.preventDefault();
    depth.current += 1;
    setIsOver(true);
  }

  function leave() {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setIsOver(false);
  }

  function drop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    depth.current = 0;
    setIsOver(false);
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) onFiles(files);
  }

  return (
    <div
      className={isCompact ? `${styles.dropzone} ${styles.dropzoneCompact}` : styles.dropzone}
      data-over={isOver || undefined}
      data-testid="tool-dropzone"
      onDragEnter={enter}
      onDragOver={(event) => {
        if (hasFiles(event)) event.preventDefault();
      }}
      onDragLeave={leave}
      onDrop={drop}
      onClick={(event) => {
        if (event.target === event.currentTarget) input.current?.click();
      }}
    >
      <span className={styles.dropIcon} aria-hidden="true">
        <UploadGlyph size={isCompact ? 26 : 48} />
      </span>
      <p className={styles.dropTitle}>{isOver ? t('dropActive') : isCompact ? t('addMore') : t('dropTitle', { kinds })}</p>
      <div className={styles.dropActions}>
        {!isCompact && <span className={styles.dropOr}>{t('dropOr')}</span>}
        <button type="button" className={isCompact ? styles.secondaryButton : styles.primaryButton} onClick={() => input.current?.click()}>
          {t('pick')}
        </button>
      </div>
      {!isCompact && <p className={styles.dropHint}>{hint}</p>}
      <input
        ref={input}
        className={styles.fileInput}
        type="file"
        accept={accept}
        multiple
        tabIndex={-1}
        aria-hidden="true"
        data-testid="tool-file-input"
        onChange={(event) => {
          const picked = Array.from(event.currentTarget.files ?? []);
          // The same file may be picked again after it was removed.
          event.currentTarget.value = '';
          if (picked.length > 0) onFiles(picked);
        }}
      />
    </div>
  );
}
