'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { formatYuan, type TPayBundle } from '@xcad/protocol';
import { CheckIcon } from '@/components/ui/icons';
import type { CashierPurchase } from '@/lib/pay/cashier';
import { savingOf, type BundleItem } from '@/lib/pay/plans';
import { LazyCashier } from './cashier-loader';
import { Price } from './product-plans';
import styles from './pay.module.css';

// A bundle of /buy.html (decision 0018): several packages for one price, bought as one order (paymerge).

export function BundleCard({ bundle, items }: { readonly bundle: TPayBundle; readonly items: readonly BundleItem[] }) {
  const t = useTranslations('pay');
  const [purchase, setPurchase] = useState<CashierPurchase | null>(null);
  const saving = savingOf(bundle);
  return (
    <article
      className={styles.bundle}
      data-testid={`bundle-${bundle.realId}`}
      aria-labelledby={`bundle-${bundle.realId}-name`}
      data-track-module="buy"
      data-track-tab="bundle"
    >
      <span className={styles.bundleBadge}>{t('bundle.badge')}</span>
      <h3 id={`bundle-${bundle.realId}-name`} className={styles.bundleName}>
        {bundle.name}
      </h3>
      <p className={styles.bundleLabel}>{t('bundle.contains')}</p>
      <ul className={styles.bundleItems}>
        {items.map((item) => (
          <li key={item.realId}>
            <CheckIcon size={16} />
            <span>
              {item.productName}
              <span className={styles.bundlePack}>{item.packageName}</span>
            </span>
          </li>
        ))}
      </ul>
      <div className={styles.bundleFoot}>
        <p className={styles.bundlePrice}>
          <Price yuan={bundle.price} className={styles.bundleNow} />
          {bundle.priceOri > bundle.price && <s className={styles.bundleOri}>{formatYuan(bundle.priceOri)}</s>}
        </p>
        {saving > 0 && <p className={styles.bundleSaving}>{t('bundle.saving', { amount: formatYuan(saving) })}</p>}
        <button
          type="button"
          className={styles.buyNow}
          data-testid={`bundle-buy-${bundle.realId}`}
          data-track-name={`bundle-${bundle.realId}`}
          onClick={() => setPurchase({ kind: 'bundle', packageids: bundle.packages, title: bundle.name, price: bundle.price })}
        >
          {t('bundle.buy')}
        </button>
      </div>
      {purchase && <LazyCashier purchase={purchase} paytype="wxpay" onClose={() => setPurchase(null)} />}
    </article>
  );
}
