'use client';

import { usePathname } from 'next/navigation';
import Link from '@/components/ui/link';
import styles from './console.module.css';

// The console's left menu (decision 0042): only the sections the operator's roles may use (the
// server chose them); the current one is marked for the eye and for assistive technology.

export interface ConsoleNavItem {
  readonly path: string;
  readonly label: string;
}

/** The menu item a path belongs to: /operator/users/12 is under 用户; /operator alone is 概览. */
function isCurrent(pathname: string, path: string): boolean {
  const bare = pathname.replace(/^\/en(?=\/)/, '');
  return path === '/operator' ? bare === path : bare === path || bare.startsWith(`${path}/`);
}

export function ConsoleNav({ items, label }: { items: readonly ConsoleNavItem[]; label: string }) {
  const pathname = usePathname();
  return (
    <nav className={styles.nav} aria-label={label} data-testid="console-nav">
      {items.map((item) => (
        <Link
          key={item.path}
          href={item.path}
          className={styles.navItem}
          aria-current={isCurrent(pathname, item.path) ? 'page' : undefined}
        >
          {item.label}
        </Link>
      ))}
    </nav>
  );
}
