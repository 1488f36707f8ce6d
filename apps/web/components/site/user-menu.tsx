'use client';

import { MEMBERSHIP_LEVELS } from '@xcad/protocol';
import type { MembershipLevel } from '@xcad/protocol';
import Image from 'next/image';
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useId, useRef } from 'react';
import type { FocusEvent, KeyboardEvent } from 'react';
import { ChevronDownIcon, CrownIcon, LogoutIcon, ReceiptIcon, UserIcon } from '@/components/ui/icons';
import { splitLocalePath } from '@/lib/i18n/locales';
import { LOGIN_PATH, USER_MENU_LINKS } from '@/lib/navigation/menu';
import styles from './user-menu.module.css';
import { useHoverMenu } from './use-hover-menu';
import { useSiteLocale } from './use-site-locale';

export interface SiteUser {
  readonly nickname?: string;
  readonly username: string;
  readonly avatarUrl?: string;
  /** spec §3 ActivityName. */
  readonly level: MembershipLevel;
}

export interface UserMenuProps {
  /** The signed-in user; absent for a visitor. */
  readonly user?: SiteUser | null;
  readonly onLogout?: () => void | Promise<void>;
}

type LevelKey = keyof typeof MEMBERSHIP_LEVELS;

function levelKeyOf(level: MembershipLevel): LevelKey {
  const keys = Object.keys(MEMBERSHIP_LEVELS) as LevelKey[];
  return keys.find((key) => MEMBERSHIP_LEVELS[key] === level) ?? 'ordinary';
}

const LINK_ICONS = {
  personal: UserIcon,
  orders: ReceiptIcon,
  openVip: CrownIcon,
} as const;

function Avatar({ user, name, size }: { readonly user: SiteUser; readonly name: string; readonly size: number }) {
  const t = useTranslations('header.user');
  if (user.avatarUrl) {
    return (
      <Image
        className={styles.avatar}
        src={user.avatarUrl}
        alt={t('avatarAlt', { name })}
        width={size}
        height={size}
        unoptimized
      />
    );
  }
  return (
    <span className={styles.avatarFallback} style={{ width: size, height: size, fontSize: size * 0.45 }} aria-hidden="true">
      {Array.from(name)[0]?.toUpperCase()}
    </span>
  );
}

/** spec §2 "User drop-down"; a visitor sees the sign-in button instead. */
export function UserMenu({ user, onLogout }: UserMenuProps) {
  const t = useTranslations('header.user');
  const { href } = useSiteLocale();
  const pathname = usePathname();
  const router = useRouter();
  const { openKey, open, closeLater, closeNow } = useHoverMenu<'user'>();
  const trigger = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  if (!user) {
    return (
      <div className={styles.root} data-testid="user-menu">
        <Link href={href(LOGIN_PATH)} className={styles.login}>
          <UserIcon size={16} />
          {t('login')}
        </Link>
      </div>
    );
  }

  const name = user.nickname?.trim() || user.username;
  const levelKey = levelKeyOf(user.level);
  const isOpen = openKey === 'user';

  const logout = async () => {
    closeNow();
    await onLogout?.();
    // spec §2: logging out from a personal page returns to the home page.
    if (splitLocalePath(pathname).rest.startsWith('/personal')) router.push(href('/'));
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
        <Avatar user={user} name={name} size={30} />
        <span className={styles.triggerName}>{name}</span>
        <ChevronDownIcon size={14} className={styles.chevron} />
      </button>
      <div id={panelId} className={styles.panel} data-open={isOpen}>
        <div className={styles.profile}>
          <Avatar user={user} name={name} size={44} />
          <div className={styles.profileText}>
            <span className={styles.profileName}>{name}</span>
            <span className={styles.level} data-level={levelKey}>
              {levelKey === 'premium' && <CrownIcon size={12} />}
              {t(`levels.${levelKey}`)}
            </span>
          </div>
        </div>
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
        </ul>
        <button type="button" className={styles.logout} onClick={() => void logout()}>
          <LogoutIcon size={16} />
          {t('logout')}
        </button>
      </div>
    </div>
  );
}
