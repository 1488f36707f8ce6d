'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { LocaleSwitcher } from '@/components/app/locale-switcher';
import { activeMenuKey } from '@/lib/navigation/active-menu';
import { DesktopNav } from './desktop-nav';
import { LogoMark } from './logo';
import styles from './site-header.module.css';
import { UserMenu } from './user-menu';
import type { UserMenuProps } from './user-menu';
import { useSiteLocale } from './use-site-locale';

export type SiteHeaderProps = UserMenuProps;

/** The desktop header (shown above 750 px): brand, the spec §2 menu, locale switcher and account. */
export function SiteHeader({ user, onLogout }: SiteHeaderProps) {
  const t = useTranslations('header');
  const { href } = useSiteLocale();
  const activeKey = activeMenuKey(usePathname());

  return (
    <header className={styles.header} data-testid="site-header">
      <div className={styles.inner}>
        <Link href={href('/')} className={styles.brand} aria-label={t('homeLink')}>
          <LogoMark size={32} />
          <span className={styles.brandName}>{t('brand')}</span>
        </Link>
        <DesktopNav activeKey={activeKey} />
        <div className={styles.actions}>
          <LocaleSwitcher />
          <UserMenu user={user} onLogout={onLogout} />
        </div>
      </div>
    </header>
  );
}
