'use client';

import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSession } from '@/components/auth/session-provider';
import { downloadResult } from '@/components/tools/conversion-calls';
import { useConversion } from '@/components/tools/use-conversion';
import { limitsizeOf, tierOf } from '@/lib/tools/files';
import type { RunSnapshot, SignedFields } from '@/lib/tools/upload';
import { exportTaskOf, type ExportChoice } from '@/lib/viewer/export';
import { ViewerIcon } from './viewer-icons';
import styles from './viewer.module.css';

// Print or export (decision 0021): the only moment the drawing leaves the device. The dialog says so,
// uploads the opened file to the online conversion (decision 0019) and downloads the PDF or PNG.

export function ExportDialog({
  file,
  fileName,
  kind,
  layout,
  background,
  onClose,
}: {
  readonly file: Blob | null;
  readonly fileName: string;
  /** What the file is, by its content: names the upload when its own name has no extension. */
  readonly kind: 'dwg' | 'dxf';
  /** The scene on screen ('Model' or a layout's name). */
  readonly layout: string;
  readonly background: 'white' | 'black';
  readonly onClose: () => void;
}) {
  const t = useTranslations('viewer.export');
  const session = useSession();
  const [nowSeconds] = useState(() => Math.floor(Date.now() / 1000));
  const tier = tierOf(session.membership, nowSeconds);
  const account = session.user?.username;
  const usertoken = session.user?.usertoken;
  const signed = useMemo<SignedFields>(() => (account === undefined ? {} : { account, usertoken }), [account, usertoken]);
  const [format, setFormat] = useState<ExportChoice['format']>('pdf');
  const [scope, setScope] = useState<'current' | 'all'>('current');
  const [color, setColor] = useState<ExportChoice['color']>('color');
  const [downloadError, setDownloadError] = useState('');
  const signedRef = useRef(signed);
  useEffect(() => {
    signedRef.current = signed;
  }, [signed]);
  const onFinished = useCallback((last: RunSnapshot) => {
    if (last.phase === 'done' && last.tasktag) {
      downloadResult(last.tasktag, signedRef.current).catch((error: unknown) =>
        setDownloadError(String((error as Error)?.message ?? error)),
      );
    }
  }, []);
  const conversion = useConversion(onFinished);
  const snapshot = conversion.snapshot;

  const start = () => {
    if (!file) return;
    const task = exportTaskOf({ format, scope: scope === 'all' ? { kind: 'all' } : { kind: 'current', layout }, color, background });
    const name = /\.(dwg|dxf)$/i.test(fileName) ? fileName : `${fileName}.${kind}`;
    const source = { name, size: file.size, slice: (a: number, b: number) => file.slice(a, b) };
    setDownloadError('');
    conversion.start({ tasktype: task.tasktype, params: task.params, files: [source], limitsize: limitsizeOf(tier), signed });
  };

  const percent = snapshot
    ? Math.round(
        snapshot.phase === 'uploading'
          ? (100 * (snapshot.files[0]?.sentBytes ?? 0)) / Math.max(1, snapshot.files[0]?.size ?? 1)
          : snapshot.progress,
      )
    : 0;
  return (
    <div
      className={styles.dialogBackdrop}
      role="presentation"
      onClick={(event) => event.target === event.currentTarget && !conversion.isRunning && onClose()}
    >
      <section
        className={styles.dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby="viewer-export-title"
        data-testid="viewer-export-dialog"
      >
        <header className={styles.dialogHead}>
          <h2 id="viewer-export-title">{t('title')}</h2>
          <button type="button" className={styles.iconButton} onClick={onClose} aria-label={t('close')} disabled={conversion.isRunning}>
            <ViewerIcon name="close" />
          </button>
        </header>
        <p className={styles.dialogNote}>{t('upload')}</p>
        {!file ? (
          <p className={styles.errorText} role="alert">
            {t('noFile')}
          </p>
        ) : (
          <>
            <fieldset className={styles.choices} disabled={conversion.isRunning}>
              <legend>{t('format')}</legend>
              {(['pdf', 'png'] as const).map((value) => (
                <label key={value}>
                  <input type="radio" name="viewer-export-format" checked={format === value} onChange={() => setFormat(value)} />
                  {t(value)}
                </label>
              ))}
            </fieldset>
            <fieldset className={styles.choices} disabled={conversion.isRunning}>
              <legend>{t('scope')}</legend>
              <label>
                <input type="radio" name="viewer-export-scope" checked={scope === 'current'} onChange={() => setScope('current')} />
                {t('current', { name: layout })}
              </label>
              <label>
                <input type="radio" name="viewer-export-scope" checked={scope === 'all'} onChange={() => setScope('all')} />
                {t('all')}
              </label>
            </fieldset>
            <fieldset className={styles.choices} disabled={conversion.isRunning}>
              <legend>{t('color')}</legend>
              {(['color', 'gray', 'mono'] as const).map((value) => (
                <label key={value}>
                  <input type="radio" name="viewer-export-color" checked={color === value} onChange={() => setColor(value)} />
                  {t(value === 'color' ? 'colorColor' : value === 'gray' ? 'colorGray' : 'colorMono')}
                </label>
              ))}
            </fieldset>
            {snapshot && (
              <p
                className={snapshot.phase === 'failed' ? styles.errorText : styles.dialogStatus}
                role={snapshot.phase === 'failed' ? 'alert' : 'status'}
                data-testid="viewer-export-status"
                data-phase={snapshot.phase}
              >
                {t(`phase.${snapshot.phase}`, { percent })}
                {snapshot.phase === 'failed' && snapshot.error ? ` ${snapshot.error}` : ''}
              </p>
            )}
            {downloadError && (
              <p className={styles.errorText} role="alert">
                {downloadError}
              </p>
            )}
            <div className={styles.dialogActions}>
              {conversion.isRunning ? (
                <button type="button" className={styles.secondaryButton} onClick={conversion.cancel}>
                  {t('cancel')}
                </button>
              ) : snapshot?.phase === 'done' && snapshot.tasktag ? (
                <button
                  type="button"
                  className={styles.primaryButton}
                  onClick={() => snapshot.tasktag && void downloadResult(snapshot.tasktag, signed)}
                >
                  {t('download')}
                </button>
              ) : (
                <button type="button" className={styles.primaryButton} onClick={start} data-testid="viewer-export-start">
                  {t('start')}
                </button>
              )}
            </div>
          </>
        )}
      </section>
    </div>
  );
}
