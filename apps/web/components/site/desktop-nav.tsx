'use client';

import Link from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { useRef } from 'react';
import type { FocusEvent, KeyboardEvent } from 'react';
import { ArrowRightIcon, ChevronDownIcon } from '@/components/ui/icons';
import { MENU } from '@/lib/navigation/menu';
import type { MenuItem, MenuKey } from '@/lib/navigation/menu';
import { MenuGlyph } from './menu-glyph';
import styles from './site-header.module.css';
import { useHoverMenu } from './use-hover-menu';
import { useSiteLocale } from './use-site-locale';

/** The desktop menu of spec §2: sub-menus open on hover or keyboard focus and close 500 ms after the pointer leaves. */
export function DesktopNav({ activeKey }: { readonly activeKey: MenuKey | null }) {
  const t = useTranslations('header');
  const { href } = useSiteLocale();
  const { openKey, open, closeLater, closeNow } = useHoverMenu<MenuKey>();
  const topLinks = useRef(new Map<MenuKey, HTMLAnchorElement>());

  const enter = (item: MenuItem) => (item.children.length > 0 ? open(item.key) : closeNow());

  const leaveFocus = (event: FocusEvent<HTMLLIElement>) => {
    const next = event.relatedTarget;
    if (!(next instanceof Node) || !event.currentTarget.contains(next)) closeNow();
  };

  const escape = (item: MenuItem) => (event: KeyboardEvent<HTMLLIElement>) => {
    if (event.key !== 'Escape' || openKey !== item.key) return;
    closeNow();
    topLinks.current.get(item.key)?.focus();
  };

  return (
    <nav className={styles.nav} aria-label={t('navLabel')}>
      <ul className={styles.menu}>
        {MENU.map((item) => {
          const label = t(`menu.${item.key}.label`);
          const hasChildren = item.children.length > 0;
          const isOpen = hasChildren && openKey === item.key;
          const panelId = `subnav-${item.key}`;
          const moreKey = `menu.${item.key}.more`;
          return (
            <li
              key={item.key}
              className={styles.item}
              data-track-tab={item.key}
              onMouseEnter={() => enter(item)}
              onMouseLeave={closeLater}
              onFocus={() => enter(item)}
              onBlur={leaveFocus}
              onKeyDown={escape(item)}
            >
              <Link
                ref={(node) => {
                  if (node) topLinks.current.set(item.key, node);
                  else topLinks.current.delete(item.key);
                }}
                href={href(item.href)}
                className={styles.topLink}
                data-testid={`nav-${item.key}`}
                data-track-name={item.key}
                aria-current={activeKey === item.key ? 'page' : undefined}
                aria-expanded={hasChildren ? isOpen : undefined}
                aria-controls={hasChildren ? panelId : undefined}
                onClick={closeNow}
              >
                {label}
                {hasChildren && <ChevronDownIcon size={14} className={styles.chevron} />}
              </Link>
              {hasChildren && (
                <div
                  id={panelId}
                  data-testid={panelId}
                  className={styles.panel}
                  data-open={isOpen}
                  data-columns={item.children.length > 3 ? 2 : 1}
                >
                  <ul className={styles.panelList} aria-label={t('submenuLabel', { label })}>
                    {item.children.map((child) => (
                      <li key={child.key}>
                        <Link href={href(child.href)} className={styles.panelLink} onClick={closeNow} data-track-name={child.key}>
                          <span className={styles.panelIcon}>
                            <MenuGlyph name={child.icon} size={20} />
                          </span>
                          <span className={styles.panelText}>
                            <span className={styles.panelTitle}>{t(`menu.${item.key}.items.${child.key}.title`)}</span>
                            <span className={styles.panelDesc}>{t(`menu.${item.key}.items.${child.key}.desc`)}</span>
                          </span>
                        </Link>
                      </li>
                    ))}
                  </ul>
                  {t.has(moreKey) && (
                    <Link href={href(item.href)} className={styles.panelMore} onClick={closeNow}>
                      {t(moreKey)}
                      <ArrowRightIcon size={14} />
                    </Link>
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
