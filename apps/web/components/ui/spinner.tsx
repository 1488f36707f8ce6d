import type { CSSProperties } from 'react';
import styles from './spinner.module.css';

/** The one busy indicator of the site; decorative (the surrounding text says what is happening). */
export function Spinner({ size = 32, tone = 'brand' }: { readonly size?: number; readonly tone?: 'brand' | 'light' }) {
  return (
    <span
      className={tone === 'light' ? `${styles.spinner} ${styles.light}` : styles.spinner}
      style={{ '--spinner-size': `${size}px` } as CSSProperties}
      aria-hidden="true"
    />
  );
}
