'use client';

import { useEffect, useRef, useState } from 'react';
import { usePathname } from 'next/navigation';
import { LOADING_BAR } from '@xcad/protocol/constants';
import { isNavigationTo, progressAt } from '@/lib/loading-bar';
import styles from './loading-bar.module.css';

// spec §2, §9: a top loading bar for client-side navigations. It appears on the first 200 ms tick
// (quick navigations never flash it), advances on the timer and completes when the new route renders.

const FINISH_HIDE_MS = 300;
/** A click that has not led anywhere after this long was not a navigation (or it failed). */
const GIVE_UP_MS = 2 * LOADING_BAR.durationMs;

export function LoadingBar() {
  const pathname = usePathname();
  const [percent, setPercent] = useState<number | null>(null);
  const startedAt = useRef<number | null>(null);
  const ticker = useRef<ReturnType<typeof setInterval> | null>(null);
  const hider = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    function stopTimers() {
      if (ticker.current) clearInterval(ticker.current);
      if (hider.current) clearTimeout(hider.current);
      ticker.current = null;
      hider.current = null;
    }
    function start() {
      stopTimers();
      startedAt.current = Date.now();
      ticker.current = setInterval(() => {
        if (startedAt.current === null) return;
        const elapsed = Date.now() - startedAt.current;
        if (elapsed < GIVE_UP_MS) {
          setPercent(progressAt(elapsed));
          return;
        }
        stopTimers();
        startedAt.current = null;
        setPercent(null);
      }, LOADING_BAR.throttleMs);
    }
    function onClick(event: MouseEvent) {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(anchor instanceof HTMLAnchorElement) || (anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return;
      if (isNavigationTo(anchor.href, new URL(window.location.href))) start();
    }
    // Capture phase: the client router's link handler prevents the default action later on.
    document.addEventListener('click', onClick, true);
    window.addEventListener('popstate', start);
    return () => {
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('popstate', start);
      stopTimers();
    };
  }, []);

  useEffect(() => {
    if (startedAt.current === null) return;
    startedAt.current = null;
    if (ticker.current) clearInterval(ticker.current);
    ticker.current = null;
    setPercent((shown) => (shown === null ? null : 100));
    hider.current = setTimeout(() => setPercent(null), FINISH_HIDE_MS);
  }, [pathname]);

  if (percent === null) return null;
  return (
    <div
      className={styles.bar}
      data-testid="loading-bar"
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      style={{ transform: `scaleX(${percent / 100})` }}
    />
  );
}
