import type { ReactNode } from 'react';
import styles from './compati.module.css';

// spec §2 "Layouts", compati: no header or footer, the content centred in the window
// (the WeChat login callback's 183x183 box, the scan-login page).
export default function CompatiLayout({ children }: { children: ReactNode }) {
  return <main className={styles.compati}>{children}</main>;
}
