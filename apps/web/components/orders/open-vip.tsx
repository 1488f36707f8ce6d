'use client';

import { PRODUCTS } from '@xcad/protocol';
import type { ProductId, TPayProduct } from '@xcad/protocol';
import { useSearchParams } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useRef, useState } from 'react';
import type { KeyboardEvent, ReactElement } from 'react';
import { useSession } from '@/components/auth/session-provider';
import { ProductPlans } from '@/components/pay/product-plans';
import { useSiteLocale } from '@/components/site/use-site-locale';
import { ConverterGlyph, CourseGlyph, CrownIcon, EditorGlyph, LibraryGlyph, ToolboxGlyph } from '@/components/ui/icons';
import type { IconProps } from '@/components/ui/icons';
import Link from '@/components/ui/link';
import { productMembershipRows } from '@/lib/auth/account-view';
import type { ProductMembershipRow } from '@/lib/auth/account-view';
import { formatBeijingDate } from '@/lib/orders/orders';
import { openVipProductOf, pcProductOf, purchaseEffectOf } from '@/lib/orders/open-vip';
import styles from './open-vip.module.css';

// /personal-openvip.html (decision 0018): the membership of each product as tabs, and for the chosen one
// what buying does to it and its packages (ProductPlans, with the cashier). `?productid=` picks
// the tab the page opens on; switching tabs keeps the address in step so a reload stays there.

const GLYPHS: Readonly<Record<ProductId, (props: IconProps) => ReactElement>> = {
  211: EditorGlyph,
  214: EditorGlyph,
  202: ConverterGlyph,
  297: CourseGlyph,
  204: ToolboxGlyph,
  203: LibraryGlyph,
};

export interface OpenVipProps {
  /** The account the page was rendered for, so a session of another account in this tab is not mixed in. */
  readonly uid: string;
  /** The membership per product as the server judged it when rendering. */
  readonly rows: readonly ProductMembershipRow[];
  /** The catalogue's products; null when it could not be read. */
  readonly products: readonly TPayProduct[] | null;
}

/**
 * The memberships to show: the browser's session once it has this account's (it follows a purchase
 * made on this page at once), else the server's.
 */
function useMembershipRows(uid: string, rows: readonly ProductMembershipRow[]): readonly ProductMembershipRow[] {
  const { user } = useSession();
  const [now] = useState(() => Math.floor(Date.now() / 1000));
  if (user === null || user.uid !== uid || user.vip === undefined) return rows;
  return productMembershipRows(user, now);
}

export function OpenVip({ uid, rows: serverRows, products }: OpenVipProps) {
  const t = useTranslations('orders.openvip');
  const account = useTranslations('account.overview');
  const { href } = useSiteLocale();
  const searchParams = useSearchParams();
  const [selected, setSelected] = useState<ProductId>(() => openVipProductOf(searchParams.get('productid')));
  const tabs = useRef(new Map<ProductId, HTMLButtonElement>());
  const rows = useMembershipRows(uid, serverRows);

  function choose(id: ProductId, shouldFocus = false) {
    setSelected(id);
    if (shouldFocus) tabs.current.get(id)?.focus();
    const url = new URL(window.location.href);
    url.searchParams.set('productid', String(id));
    window.history.replaceState(null, '', url);
  }

  // WAI-ARIA tabs: arrows move between products, Home and End to the ends.
  function onTabKey(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowDown: index + 1,
      ArrowLeft: index - 1,
      ArrowUp: index - 1,
      Home: 0,
      End: PRODUCTS.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const product = PRODUCTS[(target + PRODUCTS.length) % PRODUCTS.length];
    if (product) choose(product.id, true);
  }

  const row = rows.find((candidate) => candidate.productId === selected);
  const info = PRODUCTS.find((product) => product.id === selected);
  if (row === undefined || info === undefined) return null;
  const name = account(`products.${row.key}`);
  const effect = purchaseEffectOf(row);
  const catalogueProduct = products === null ? null : pcProductOf(products, selected);
  const expiry = row.expireTime === null ? '' : formatBeijingDate(row.expireTime);

  const statusText =
    row.expireTime === null
      ? null
      : row.isLifelong
        ? t('lifelong')
        : t(row.level === 'premium' ? 'expiresOn' : 'expiredOn', { date: expiry });
  const note = {
    open: t('openNote'),
    renew: t('renewNote', { date: expiry }),
    restart: t('expiredNote', { date: expiry }),
    lifelong: t('lifelongNote', { product: name }),
  }[effect];

  return (
    <div className={styles.openvip} data-testid="openvip">
      <div className={styles.tabs} role="tablist" aria-label={t('productsLabel')}>
        {PRODUCTS.map((product, index) => {
          const tabRow = rows.find((candidate) => candidate.productId === product.id);
          const Glyph = GLYPHS[product.id];
          const isSelected = product.id === selected;
          return (
            <button
              key={product.id}
              ref={(element) => {
                if (element) tabs.current.set(product.id, element);
                else tabs.current.delete(product.id);
              }}
              type="button"
              role="tab"
              id={`openvip-tab-${product.id}`}
              aria-selected={isSelected}
              aria-controls="openvip-panel"
              tabIndex={isSelected ? 0 : -1}
              className={styles.tab}
              data-testid={`openvip-tab-${product.id}`}
              data-level={tabRow?.level}
              onClick={() => choose(product.id)}
              onKeyDown={(event) => onTabKey(event, index)}
            >
              <span className={styles.glyph} aria-hidden="true">
                <Glyph size={22} />
              </span>
              <span className={styles.tabText}>
                <span className={styles.tabName}>{account(`products.${product.key}`)}</span>
                {tabRow && (
                  <span className={styles.tabLevel} data-level={tabRow.level}>
                    {tabRow.isLifelong ? t('lifelong') : account(`levels.${tabRow.level}`)}
                  </span>
                )}
              </span>
            </button>
          );
        })}
      </div>

      <section
        className={styles.panel}
        role="tabpanel"
        id="openvip-panel"
        aria-labelledby={`openvip-tab-${selected}`}
        data-productid={selected}
      >
        <header
          className={styles.status}
          data-testid="openvip-membership"
          data-level={row.level}
          data-lifelong={row.isLifelong || undefined}
        >
          <div className={styles.statusMain}>
            <h2 className={styles.title}>
              {t(effect === 'renew' || effect === 'lifelong' ? 'renewTitle' : 'openTitle', { product: name })}
            </h2>
            <p className={styles.current}>
              <span className={styles.currentLabel}>{t('current')}</span>
              <span className={styles.level} data-level={row.level}>
                {row.level === 'premium' && <CrownIcon size={12} />}
                {account(`levels.${row.level}`)}
              </span>
              {statusText && <span className={styles.expiry}>{statusText}</span>}
            </p>
          </div>
          <p className={styles.note} data-effect={effect}>
            {note}
          </p>
        </header>

        {effect !== 'lifelong' &&
          (products === null ? (
            <p className={styles.notice} role="alert">
              {t('catalogueFailed')}
            </p>
          ) : catalogueProduct === null ? (
            <p className={styles.notice}>{t('noPlans')}</p>
          ) : (
            <div className={styles.plans}>
              <ProductPlans key={catalogueProduct.productid} product={catalogueProduct} channel="pc" />
            </div>
          ))}

        <footer className={styles.links}>
          <Link href={href(row.buyPath)}>{t('buyPage')}</Link>
          <Link href={href('/personal-buy.html')}>{t('records')}</Link>
          <Link href={href('/invoice.html')}>{t('invoice')}</Link>
        </footer>
      </section>
    </div>
  );
}
