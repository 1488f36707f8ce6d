'use client';

import { useSyncExternalStore } from 'react';
import { useTranslations } from 'next-intl';
import styles from './desktop-frame.module.css';

// spec §2 "Layouts" (desktop) and "Other UI": inside the desktop app the page gets a title bar of
// its own that moves the window (drag area) and minimises, maximises or closes it through the
// bridge the shell exposes as `window.desktop`. In a browser nothing is rendered.

interface DesktopBridge {
  isDesktop?: boolean;
  minimize?: () => void;
  toggleMaximize?: () => void;
  close?: () => void;
}

function bridge(): DesktopBridge | undefined {
  return (window as Window & { desktop?: DesktopBridge }).desktop;
}

const subscribe = () => () => {};
const isDesktopApp = () => bridge()?.isDesktop === true;

export function DesktopFrame() {
  const t = useTranslations('common.desktop');
  const isDesktop = useSyncExternalStore(subscribe, isDesktopApp, () => false);
  if (!isDesktop) return null;
  const desktop = bridge();
  return (
    <div className={styles.titleBar} data-testid="desktop-title-bar">
      <div className={styles.dragArea}>{t('title')}</div>
      <div className={styles.buttons}>
        <button type="button" className={styles.button} aria-label={t('minimize')} onClick={() => desktop?.minimize?.()}>
          <svg viewBox="0 0 12 12" aria-hidden="true">
            <path d="M2 6h8" />
          </svg>
        </button>
        <button type="button" className={styles.button} aria-label={t('maximize')} onClick={() => desktop?.toggleMaximize?.()}>
          <svg viewBox="0 0 12 12" aria-hidden="true">
            <rect x="2.5" y="2.5" width="7" height="7" />
          </svg>
        </button>
        <button
          type="button"
          className={`${styles.button} ${styles.close}`}
          aria-label={t('close')}
          onClick={() => desktop?.close?.()}
        >
          <svg viewBox="0 0 12 12" aria-hidden="true">
            <path d="M2.5 2.5l7 7M9.5 2.5l-7 7" />
          </svg>
        </button>
      </div>
    </div>
  );
}
