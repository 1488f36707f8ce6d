'use client';

import Link from '@/components/ui/link';
import { usePathname } from 'next/navigation';
import { splitLocalePath } from '@/lib/i18n/locales';
import styles from './personal-nav.module.css';

export interface PersonalNavItem {
  readonly path: string;
  readonly href: string;
  readonly label: string;
}

/** The personal centre's left navigation; the entry of the current page is marked. */
export function PersonalNav({ label, items }: { label: string; items: readonly PersonalNavItem[] }) {
  const { rest } = splitLocalePath(usePathname());
  return (
    <nav className={styles.nav} aria-label={label} data-testid="personal-nav">
      <ul>
        {items.map((item) => (
          <li key={item.path}>
            <Link href={item.href} className={styles.link} aria-current={rest === item.path ? 'page' : undefined}>
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
