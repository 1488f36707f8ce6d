'use client';

import { useEffect, useRef, useState } from 'react';
import type { PointerEvent as ReactPointerEvent } from 'react';
import { useTranslations } from 'next-intl';
import type { DesktopBridge } from '@xcad/protocol/desktop';
import { LogoMark } from '@/components/site/logo';
import styles from './desktop-title-bar.module.css';

// spec §2 "Layouts" (desktop) and "Other UI": the desktop app's own title bar. Its drag area moves
// the window (pointer movements in screen pixels go to `desktop.moveBy`; in the Electron shell the
// frameless window's drag region does it natively) and a double click maximises or restores; the
// three buttons minimise, maximise or restore, and close.

interface Drag {
  readonly pointerId: number;
  x: number;
  y: number;
}

function report(error: unknown): void {
  console.error(error);
}

export function DesktopTitleBar({ desktop }: { readonly desktop: DesktopBridge }) {
  const t = useTranslations('common.desktop');
  const [isMaximized, setIsMaximized] = useState(false);
  const drag = useRef<Drag | null>(null);

  useEffect(() => {
    let isCurrent = true;
    const unsubscribe = desktop.onMaximizedChange((next) => setIsMaximized(next));
    desktop.isMaximized().then((state) => {
      if (isCurrent) setIsMaximized(state);
    }, report);
    return () => {
      isCurrent = false;
      unsubscribe();
    };
  }, [desktop]);

  const toggleMaximize = () => {
    desktop.toggleMaximize().then(setIsMaximized, report);
  };

  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (event.button !== 0 || isMaximized) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { pointerId: event.pointerId, x: event.screenX, y: event.screenY };
    desktop.startDrag().catch(report);
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    const dx = event.screenX - current.x;
    const dy = event.screenY - current.y;
    if (dx === 0 && dy === 0) return;
    current.x = event.screenX;
    current.y = event.screenY;
    desktop.moveBy(dx, dy).catch(report);
  };
  const onPointerEnd = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (drag.current?.pointerId !== event.pointerId) return;
    drag.current = null;
    desktop.endDrag().catch(report);
  };

  const maximizeLabel = isMaximized ? t('restore') : t('maximize');
  return (
    <div className={styles.titleBar} data-testid="desktop-title-bar">
      <div
        className={styles.dragArea}
        data-testid="desktop-drag-area"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
        onDoubleClick={toggleMaximize}
      >
        <LogoMark size={18} />
        <span className={styles.title}>{t('title')}</span>
      </div>
      <div className={styles.buttons}>
        <button
          type="button"
          className={styles.button}
          title={t('minimize')}
          aria-label={t('minimize')}
          onClick={() => desktop.minimize().catch(report)}
        >
          <svg viewBox="0 0 12 12" aria-hidden="true">
            <path d="M2 6h8" />
          </svg>
        </button>
        <button type="button" className={styles.button} title={maximizeLabel} aria-label={maximizeLabel} onClick={toggleMaximize}>
          {isMaximized ? (
            <svg viewBox="0 0 12 12" aria-hidden="true">
              <rect x="2" y="4" width="6" height="6" />
              <path d="M4 4V2h6v6H8" />
            </svg>
          ) : (
            <svg viewBox="0 0 12 12" aria-hidden="true">
              <rect x="2.5" y="2.5" width="7" height="7" />
            </svg>
          )}
        </button>
        <button
          type="button"
          className={`${styles.button} ${styles.close}`}
          title={t('close')}
          aria-label={t('close')}
          onClick={() => desktop.close().catch(report)}
        >
          <svg viewBox="0 0 12 12" aria-hidden="true">
            <path d="M2.5 2.5l7 7M9.5 2.5l-7 7" />
          </svg>
        </button>
      </div>
    </div>
  );
}
