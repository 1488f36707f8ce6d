'use client';

import Link from '@/components/ui/link';
import { usePathname } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { useSession } from '@/components/auth/session-provider';
import { UserAvatar } from '@/components/personal/user-avatar';
import { ChevronDownIcon, CloseIcon, MenuIcon, UserIcon } from '@/components/ui/icons';
import { displayNameOf } from '@/lib/auth/account-view';
import { LOCALES, localeCookieString } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import { switchLocaleTarget } from '@/lib/i18n/switch';
import { activeMenuKey } from '@/lib/navigation/active-menu';
import { MENU, MOBILE_LOGIN_PATH, PERSONAL_PATH } from '@/lib/navigation/menu';
import type { MenuKey } from '@/lib/navigation/menu';
import { LogoMark } from './logo';
import { MenuGlyph } from './menu-glyph';
import styles from './mobile-header.module.css';
import { useSiteLocale } from './use-site-locale';

// Same rule as the desktop LocaleSwitcher (spec §4): store the cookie, then open the page in the
// new locale (a full navigation, so its messages load); nothing happens for the current locale.
function openInLocale(current: Locale, next: Locale): void {
  const target = switchLocaleTarget(current, next, window.location);
  if (!target) return;
  document.cookie = localeCookieString(next);
  window.location.assign(target);
}

/**
 * The mobile header of spec §2 (750 px and below): logo, the account icon (the login page for a
 * visitor, the personal centre with the avatar once signed in), and a collapsible menu with sub-lists.
 * No entry is active on the not-found page (`hasActiveEntry` false), as in the desktop header.
 */
export function MobileHeader({ hasActiveEntry = true }: { readonly hasActiveEntry?: boolean }) {
  const t = useTranslations('mobile');
  const tHeader = useTranslations('header');
  const tLocale = useTranslations('i18n');
  const { locale, href } = useSiteLocale();
  const pathname = usePathname();
  const activeKey = hasActiveEntry ? activeMenuKey(pathname) : null;
  const { user } = useSession();
  const [isOpen, setIsOpen] = useState(false);
  const [expanded, setExpanded] = useState<MenuKey | null>(null);

  // The page behind an open menu must not scroll; Escape closes it.
  useEffect(() => {
    if (!isOpen) return;
    const previous = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setIsOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => {
      document.body.style.overflow = previous;
      window.removeEventListener('keydown', onKey);
    };
  }, [isOpen]);

  const toggleMenu = () => {
    setIsOpen((open) => !open);
    setExpanded(activeKey);
  };
  const close = () => setIsOpen(false);

  return (
    <header className={styles.header} data-testid="mobile-header" data-track-module="mobile-header">
      <div className={styles.bar}>
        <Link href={href('/')} className={styles.brand} aria-label={tHeader('homeLink')} onClick={close}>
          <LogoMark size={28} className={styles.logo} />
          <span className={styles.brandName}>{tHeader('brand')}</span>
        </Link>
        <div className={styles.actions}>
          {user ? (
            <Link
              href={href(PERSONAL_PATH)}
              className={styles.iconButton}
              data-testid="mobile-login"
              aria-label={t('personal')}
              onClick={close}
            >
              <UserAvatar src={user.head_portrait} name={displayNameOf(user)} size={28} className={styles.avatar} />
            </Link>
          ) : (
            <Link
              href={href(MOBILE_LOGIN_PATH)}
              className={styles.iconButton}
              data-testid="mobile-login"
              aria-label={t('login')}
              onClick={close}
            >
              <UserIcon className={styles.icon} />
            </Link>
          )}
          <button
            type="button"
            className={styles.iconButton}
            data-testid="mobile-menu-toggle"
            aria-expanded={isOpen}
            aria-controls="mobile-menu"
            aria-label={isOpen ? t('closeMenu') : t('openMenu')}
            onClick={toggleMenu}
          >
            {isOpen ? <CloseIcon className={styles.icon} /> : <MenuIcon className={styles.icon} />}
          </button>
        </div>
      </div>

      <nav id="mobile-menu" className={styles.menu} data-testid="mobile-menu" aria-label={t('menuLabel')} hidden={!isOpen}>
        <ul className={styles.sections}>
          {MENU.map((item) => {
            const label = tHeader(`menu.${item.key}.label`);
            const isExpanded = expanded === item.key;
            const listId = `mobile-menu-${item.key}`;
            return (
              <li key={item.key} className={styles.section} data-active={activeKey === item.key} data-track-tab={item.key}>
                <div className={styles.row}>
                  <Link
                    href={href(item.href)}
                    className={styles.rowLink}
                    aria-current={activeKey === item.key ? 'page' : undefined}
                    onClick={close}
                    data-track-name={item.key}
                  >
                    {label}
                  </Link>
                  {item.children.length > 0 && (
                    <button
                      type="button"
                      className={styles.expand}
                      aria-expanded={isExpanded}
                      aria-controls={listId}
                      aria-label={isExpanded ? t('collapse', { label }) : t('expand', { label })}
                      onClick={() => setExpanded(isExpanded ? null : item.key)}
                    >
                      <ChevronDownIcon className={styles.chevron} />
                    </button>
                  )}
                </div>
                {item.children.length > 0 && (
                  <ul id={listId} className={styles.subList} hidden={!isExpanded}>
                    {item.children.map((child) => (
                      <li key={child.key}>
                        <Link href={href(child.href)} className={styles.subLink} onClick={close} data-track-name={child.key}>
                          <MenuGlyph name={child.icon} className={styles.subIcon} />
                          <span>{tHeader(`menu.${item.key}.items.${child.key}.title`)}</span>
                        </Link>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            );
          })}
        </ul>
        <div className={styles.locales} role="group" aria-label={tLocale('label')}>
          {LOCALES.map((code) => (
            <button
              key={code}
              type="button"
              className={styles.locale}
              lang={code}
              aria-pressed={code === locale}
              onClick={() => openInLocale(locale, code)}
            >
              {tLocale(`names.${code}`)}
            </button>
          ))}
        </div>
      </nav>
    </header>
  );
}
