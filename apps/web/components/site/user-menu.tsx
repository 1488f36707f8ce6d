'use client';

import { MEMBERSHIP_LEVELS } from '@xcad/protocol/constants';
import Link from '@/components/ui/link';
import { useFormatter, useNow, useTranslations } from 'next-intl';
import { useId, useRef } from 'react';
import type { FocusEvent, KeyboardEvent } from 'react';
import { useLoginModal } from '@/components/auth/login-modal-provider';
import { useSession } from '@/components/auth/session-provider';
import { OperatorMenuLink } from '@/components/operator/operator-menu-link';
import { UserAvatar } from '@/components/personal/user-avatar';
import { ChevronDownIcon, CrownIcon, LogoutIcon, ReceiptIcon, UserIcon } from '@/components/ui/icons';
import { displayNameOf, levelKeyOf, localMembershipRows } from '@/lib/auth/account-view';
import { USER_MENU_LINKS } from '@/lib/navigation/menu';
import styles from './user-menu.module.css';
import { useHoverMenu } from './use-hover-menu';
import { useSiteLocale } from './use-site-locale';

const LINK_ICONS = {
  personal: UserIcon,
  orders: ReceiptIcon,
  openVip: CrownIcon,
} as const;

/**
 * spec §2 "User drop-down": the header shows the avatar, the name and the membership level; the
 * drop-down repeats them with the links and logout. A visitor (and the server render, which knows
 * no one) sees the sign-in button instead.
 */
export function UserMenu() {
  const t = useTranslations('header.user');
  const products = useTranslations('account.overview');
  const format = useFormatter();
  // Re-judged every minute while the page is open: a membership can run out under the user's eyes.
  const now = Math.floor(useNow({ updateInterval: 60_000 }).getTime() / 1000);
  const { href } = useSiteLocale();
  const { user, membership, signOut } = useSession();
  const loginModal = useLoginModal();
  const { openKey, open, closeLater, closeNow } = useHoverMenu<'user'>();
  const trigger = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  if (!user) {
    return (
      <div className={styles.root}>
        <button type="button" className={styles.login} data-testid="header-login" onClick={() => loginModal.open()}>
          <UserIcon size={16} />
          {t('login')}
        </button>
      </div>
    );
  }

  const name = displayNameOf(user);
  // Until a membership answer is known the user is shown as what everyone starts as.
  const levelKey = levelKeyOf(membership?.ActivityName ?? MEMBERSHIP_LEVELS.ordinary);
  const isOpen = openKey === 'user';

  const logout = () => {
    closeNow();
    void signOut();
  };

  const leaveFocus = (event: FocusEvent<HTMLDivElement>) => {
    const next = event.relatedTarget;
    if (!(next instanceof Node) || !event.currentTarget.contains(next)) closeNow();
  };

  const escape = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape' || !isOpen) return;
    closeNow();
    trigger.current?.focus();
  };

  return (
    <div
      className={styles.root}
      data-testid="user-menu"
      onMouseEnter={() => open('user')}
      onMouseLeave={closeLater}
      onBlur={leaveFocus}
      onKeyDown={escape}
    >
      <button
        ref={trigger}
        type="button"
        className={styles.trigger}
        aria-label={t('menuLabel')}
        aria-expanded={isOpen}
        aria-controls={panelId}
        onClick={() => (isOpen ? closeNow() : open('user'))}
      >
        <UserAvatar src={user.head_portrait} name={name} size={32} />
        <span className={styles.triggerText}>
          <span className={styles.triggerName} data-testid="user-menu-name">
            {name}
          </span>
          <span className={styles.triggerLevel} data-level={levelKey} data-testid="user-menu-level">
            {t(`levels.${levelKey}`)}
          </span>
        </span>
        <ChevronDownIcon size={14} className={styles.chevron} />
      </button>
      <div id={panelId} className={styles.panel} data-open={isOpen}>
        <div className={styles.profile}>
          <UserAvatar src={user.head_portrait} name={name} size={44} alt={t('avatarAlt', { name })} />
          <div className={styles.profileText}>
            <span className={styles.profileName}>{name}</span>
            <span className={styles.level} data-level={levelKey}>
              {levelKey === 'premium' && <CrownIcon size={12} />}
              {t(`levels.${levelKey}`)}
            </span>
          </div>
        </div>
        {membership && (
          <ul className={styles.products} aria-label={t('membershipsLabel')} data-testid="user-menu-products">
            {localMembershipRows(membership, now).map((row) => (
              <li key={row.key} className={styles.productRow} data-testid={`user-menu-product-${row.key}`} data-level={row.level}>
                <span className={styles.productName}>{products(`products.${row.key}`)}</span>
                <span className={styles.productStatus} data-level={row.level}>
                  {row.level === 'premium'
                    ? row.isLifelong
                      ? products('lifelong')
                      : products('expiresOn', {
                          date: format.dateTime(new Date((row.expireTime ?? 0) * 1000), {
                            year: 'numeric',
                            month: '2-digit',
                            day: '2-digit',
                          }),
                        })
                    : t(`levels.${row.level}`)}
                </span>
              </li>
            ))}
          </ul>
        )}
        <ul className={styles.links}>
          {USER_MENU_LINKS.map((link) => {
            const LinkIcon = LINK_ICONS[link.key];
            return (
              <li key={link.key}>
                <Link href={href(link.href)} className={styles.link} onClick={closeNow}>
                  <LinkIcon size={16} />
                  {t(link.key)}
                </Link>
              </li>
            );
          })}
          <OperatorMenuLink usertoken={user.usertoken} isMenuOpen={isOpen} className={styles.link} onNavigate={closeNow} />
        </ul>
        <button type="button" className={styles.logout} data-testid="user-menu-logout" onClick={logout}>
          <LogoutIcon size={16} />
          {t('logout')}
        </button>
      </div>
    </div>
  );
}
