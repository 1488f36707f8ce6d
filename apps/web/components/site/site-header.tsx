'use client';

import Link from '@/components/ui/link';
import { usePathname } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { LocaleSwitcher } from '@/components/app/locale-switcher';
import { useSession } from '@/components/auth/session-provider';
import { activeMenuKey } from '@/lib/navigation/active-menu';
import { DesktopNav } from './desktop-nav';
import { LogoMark } from './logo';
import styles from './site-header.module.css';
import { UserMenu } from './user-menu';
import { useSiteLocale } from './use-site-locale';

/**
 * The desktop header (shown above 750 px): brand, the spec §2 menu, locale switcher and account.
 * `data-session` tells when the browser has read the session (tests wait for it). On the not-found
 * page no entry is active (`hasActiveEntry` false): its address belongs to no menu entry's page.
 */
export function SiteHeader({ hasActiveEntry = true }: { readonly hasActiveEntry?: boolean }) {
  const t = useTranslations('header');
  const { href } = useSiteLocale();
  const pathname = usePathname();
  const activeKey = hasActiveEntry ? activeMenuKey(pathname) : null;
  const { status } = useSession();

  return (
    <header className={styles.header} data-testid="site-header" data-session={status} data-track-module="header">
      <div className={styles.inner}>
        <Link href={href('/')} className={styles.brand} aria-label={t('homeLink')}>
          <LogoMark size={32} />
          <span className={styles.brandName}>{t('brand')}</span>
        </Link>
        <DesktopNav activeKey={activeKey} />
        <div className={styles.actions}>
          <LocaleSwitcher />
          <UserMenu />
        </div>
      </div>
    </header>
  );
}
