'use client';

import { formatYuan } from '@xcad/protocol';
import type { TInvoice } from '@xcad/protocol';
import { useTranslations } from 'next-intl';
import { formatBeijingTime } from '@/lib/orders/orders';
import styles from './invoice.module.css';

/** 'My invoices': each application with its order, title, amount, where it goes and its state. */
export function InvoiceList({ invoices }: { readonly invoices: readonly TInvoice[] }) {
  const t = useTranslations('orders.invoice.list');
  return (
    <section className={styles.listSection} aria-labelledby="invoice-list-title">
      <h2 id="invoice-list-title" className={styles.sectionTitle}>
        {t('title')}
      </h2>
      {invoices.length === 0 ? (
        <p className={styles.listEmpty} data-testid="invoice-list" data-count={0}>
          {t('empty')}
        </p>
      ) : (
        <ul className={styles.list} data-testid="invoice-list" data-count={invoices.length}>
          {invoices.map((invoice) => (
            <li
              key={invoice.orderno}
              className={styles.invoice}
              data-testid="invoice-row"
              data-orderno={invoice.orderno}
              data-state={invoice.state}
            >
              <div className={styles.invoiceHead}>
                <p className={styles.invoiceTitle}>
                  <span className={styles.titleType}>{t(`titletypes.${invoice.titletype}`)}</span>
                  <strong>{invoice.title}</strong>
                </p>
                <span className={styles.invoiceState} data-state={invoice.state} data-testid="invoice-state">
                  {t(`states.${invoice.state}`)}
                </span>
              </div>
              <dl className={styles.invoiceDetails}>
                <div>
                  <dt>{t('orderNo')}</dt>
                  <dd className={styles.mono}>{invoice.orderno}</dd>
                </div>
                <div>
                  <dt>{t('amount')}</dt>
                  <dd className={styles.invoiceAmount}>{formatYuan(invoice.amount)}</dd>
                </div>
                <div>
                  <dt>{t('email')}</dt>
                  <dd className={styles.breakAll}>{invoice.email}</dd>
                </div>
                <div>
                  <dt>{t('appliedAt')}</dt>
                  <dd>{formatBeijingTime(invoice.createtime)}</dd>
                </div>
                {invoice.issuedtime !== null && (
                  <div>
                    <dt>{t('issuedAt')}</dt>
                    <dd>{formatBeijingTime(invoice.issuedtime)}</dd>
                  </div>
                )}
              </dl>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
