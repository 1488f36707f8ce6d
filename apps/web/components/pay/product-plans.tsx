'use client';

import { useEffect, useId, useMemo, useState } from 'react';
import type { ReactElement } from 'react';
import { useTranslations } from 'next-intl';
import { PAY_TYPES, formatYuan, type TPayPackage, type TPayProduct, type TPayType } from '@xcad/protocol';
import { useSiteLocale } from '@/components/site/use-site-locale';
import type { CashierPurchase } from '@/lib/pay/cashier';
import { takePendingPurchase } from '@/lib/pay/pending-purchase';
import { planNoteOf, plansOf, preselectedPlan, savingOf } from '@/lib/pay/plans';
import { LazyCashier } from './cashier-loader';
import { PayTypeIcon } from './pay-type-icon';
import styles from './pay.module.css';

// A product's packages as a radio group, the way to pay, and 立即购买 opening the cashier (issue
// 4). Used by the buy pages and /personal-openvip.html.

/** ¥ small, the number big. */
export function Price({ yuan, className }: { readonly yuan: number; readonly className?: string }) {
  const text = formatYuan(yuan);
  return (
    <span className={className}>
      <span className={styles.currency}>{text.slice(0, 1)}</span>
      {text.slice(1)}
    </span>
  );
}

function PlanNote({ plan }: { readonly plan: TPayPackage }) {
  const t = useTranslations('pay.plans.note');
  const note = planNoteOf(plan);
  return (
    <span className={styles.planNote}>{note.kind === 'perMonth' ? t('perMonth', { price: formatYuan(note.yuan) }) : t(note.kind)}</span>
  );
}

export function ProductPlans(props: { product: TPayProduct; channel?: 'pc' | 'app' }): ReactElement {
  const { product, channel = 'pc' } = props;
  const t = useTranslations('pay');
  const { href } = useSiteLocale();
  const groupName = useId();
  const plans = useMemo(() => plansOf(product, channel), [product, channel]);
  const [selectedId, setSelectedId] = useState<number | null>(() => preselectedPlan(plans)?.realId ?? null);
  const [paytype, setPaytype] = useState<TPayType>('wxpay');
  const [purchase, setPurchase] = useState<CashierPurchase | null>(null);
  const selected = plans.find((plan) => plan.realId === selectedId) ?? preselectedPlan(plans);

  // Back from WeChat's OAuth (decision 0043): the cashier opens again with what was being bought.
  // (Read after hydration: sessionStorage exists only in the browser.)
  useEffect(() => {
    const timer = setTimeout(() => {
      const pending = takePendingPurchase(
        window.location.pathname,
        (candidate) => candidate.kind === 'package' && candidate.productid === product.productid,
      );
      if (pending?.purchase.kind !== 'package') return;
      setSelectedId(pending.purchase.packageid);
      setPaytype(pending.paytype);
      setPurchase(pending.purchase);
    }, 0);
    return () => clearTimeout(timer);
  }, [product.productid]);

  if (selected === null) {
    return (
      <p className={styles.empty} data-testid="plans-empty">
        {t('plans.empty')}
      </p>
    );
  }

  const buy = () =>
    setPurchase({
      kind: 'package',
      productid: product.productid,
      packageid: selected.realId,
      title: t('plans.purchaseTitle', { product: product.name, plan: selected.name }),
      price: selected.price,
    });

  return (
    <div
      className={styles.plans}
      data-testid="product-plans"
      data-productid={product.productid}
      data-channel={channel}
      data-track-module="buy"
      data-track-tab={String(product.productid)}
    >
      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>{t('plans.label')}</legend>
        <div className={styles.planGrid}>
          {plans.map((plan) => {
            const saving = savingOf(plan);
            const isChecked = plan.realId === selected.realId;
            return (
              <label key={plan.realId} className={styles.plan} data-testid={`plan-${plan.realId}`} data-checked={isChecked}>
                <input
                  type="radio"
                  className={styles.radio}
                  name={groupName}
                  value={plan.realId}
                  checked={isChecked}
                  onChange={() => setSelectedId(plan.realId)}
                />
                {plan.recommended && <span className={styles.badge}>{t('plans.recommended')}</span>}
                <span className={styles.planName}>{plan.name}</span>
                <Price yuan={plan.price} className={styles.planPrice} />
                {plan.priceOri > plan.price && (
                  <s className={styles.planOri}>{t('plans.originalPrice', { price: formatYuan(plan.priceOri) })}</s>
                )}
                <PlanNote plan={plan} />
                {saving > 0 && <span className={styles.saving}>{t('plans.saving', { amount: formatYuan(saving) })}</span>}
              </label>
            );
          })}
        </div>
      </fieldset>

      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>{t('plans.payType')}</legend>
        <div className={styles.payTypes}>
          {PAY_TYPES.map((type) => (
            <label key={type} className={styles.payType} data-testid={`paytype-${type}`} data-checked={type === paytype}>
              <input
                type="radio"
                className={styles.radio}
                name={`${groupName}-paytype`}
                value={type}
                checked={type === paytype}
                onChange={() => setPaytype(type)}
              />
              <PayTypeIcon paytype={type} size={22} />
              {t(`payTypes.${type}`)}
            </label>
          ))}
        </div>
      </fieldset>

      <div className={styles.checkout}>
        <p className={styles.total}>
          <span className={styles.totalLabel}>{t('plans.total')}</span>
          <Price yuan={selected.price} className={styles.totalPrice} />
          {selected.priceOri > selected.price && <s className={styles.totalOri}>{formatYuan(selected.priceOri)}</s>}
        </p>
        <button type="button" className={styles.buyNow} data-testid="buy-now" data-track-name="buy-now" onClick={buy}>
          {t('plans.buyNow')}
        </button>
      </div>
      <p className={styles.agreement}>
        {t.rich('plans.agreement', {
          terms: (chunks) => (
            <a href={href('/shengming.html')} target="_blank" rel="noopener">
              {chunks}
            </a>
          ),
        })}
      </p>
      {purchase && <LazyCashier purchase={purchase} paytype={paytype} onClose={() => setPurchase(null)} />}
    </div>
  );
}
