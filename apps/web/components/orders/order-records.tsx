'use client';

import { endpoints, formatYuan } from '@xcad/protocol';
import type { TOrderDetails } from '@xcad/protocol';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSession } from '@/components/auth/session-provider';
import { useSiteLocale } from '@/components/site/use-site-locale';
import { ChevronLeftIcon, ChevronRightIcon, ReceiptIcon } from '@/components/ui/icons';
import Link from '@/components/ui/link';
import { Spinner } from '@/components/ui/spinner';
import { apiClient } from '@/lib/api/client';
import { isSessionRefused } from '@/lib/auth/session-refused';
import type { OrderPage } from '@/lib/orders/orders-server';
import {
  displayedStateOf,
  formatBeijingTime,
  invoiceActionOf,
  invoiceHrefOf,
  ORDERS_PAGE_SIZE,
  pageCountOf,
  pageItemsOf,
} from '@/lib/orders/orders';
import styles from './orders.module.css';

// /personal-buy.html (decision 0018): the signed-in user's orders, newest first, a page at a time. The
// first page comes rendered from the server; the pager asks the API from the browser.

interface Loaded {
  readonly page: number;
  readonly data: OrderPage;
}

function OrderRow({ order, now }: { readonly order: TOrderDetails; readonly now: number }) {
  const t = useTranslations('orders');
  const { href } = useSiteLocale();
  const state = displayedStateOf(order, now);
  const action = invoiceActionOf(order);
  // Decision 0043: a refund shows with its amount; the whole amount back reads 已退款.
  const isRefunded = order.refund > 0 && order.refund >= order.amount;
  const items =
    order.items.length > 0
      ? order.items.map((item) => ({ key: `${item.realId}`, product: item.productname, name: item.name }))
      : [{ key: 'subject', product: order.subject, name: '' }];
  return (
    <tr className={styles.row} data-testid="order-row" data-orderno={order.orderno} data-state={state}>
      <td className={styles.orderCell}>
        <ul className={styles.items}>
          {items.map((item) => (
            <li key={item.key}>
              <strong>{item.product}</strong>
              {item.name && <span className={styles.package}>{item.name}</span>}
            </li>
          ))}
        </ul>
        <p className={styles.orderNo}>
          <span>{t('records.orderNo')}</span>
          <span className={styles.mono}>{order.orderno}</span>
        </p>
      </td>
      <td className={styles.amountCell}>
        <strong className={styles.amount}>{formatYuan(order.amount)}</strong>
        <span className={styles.payType} data-paytype={order.paytype}>
          {t(`payTypes.${order.paytype}`)}
        </span>
      </td>
      <td className={styles.stateCell}>
        <span className={styles.badge} data-state={isRefunded ? 'refunded' : state} data-testid="order-state">
          {isRefunded ? t('states.refunded') : t(`states.${state}`)}
        </span>
        {order.refund > 0 && (
          <span className={styles.refund} data-testid="order-refund">
            {t(isRefunded ? 'records.refunded' : 'records.partRefunded', { amount: formatYuan(order.refund) })}
          </span>
        )}
      </td>
      <td className={styles.timeCell}>
        <span>
          <span className={styles.timeLabel}>{t('records.created')}</span>
          {formatBeijingTime(order.createtime)}
        </span>
        {order.paidtime !== null && (
          <span>
            <span className={styles.timeLabel}>{t('records.paid')}</span>
            {formatBeijingTime(order.paidtime)}
          </span>
        )}
        {state === 'unpaid' && (
          <span className={styles.unpaidHint}>{t('records.unpaidUntil', { time: formatBeijingTime(order.expiretime) })}</span>
        )}
      </td>
      <td className={styles.invoiceCell} data-invoice={action}>
        {action === 'apply' ? (
          <Link className={styles.applyLink} href={href(invoiceHrefOf(order.orderno))} data-testid="order-invoice-apply">
            <ReceiptIcon size={14} />
            {t('records.invoice.apply')}
          </Link>
        ) : (
          <span className={styles.invoiceState} data-invoice={action}>
            {t(`records.invoice.${action}`)}
          </span>
        )}
      </td>
    </tr>
  );
}

function Pager({
  page,
  count,
  isBusy,
  onGo,
}: {
  readonly page: number;
  readonly count: number;
  readonly isBusy: boolean;
  readonly onGo: (page: number) => void;
}) {
  const t = useTranslations('orders.records.pager');
  if (count <= 1) return null;
  return (
    <nav className={styles.pager} aria-label={t('label')} data-testid="orders-pager">
      <button
        type="button"
        className={styles.pageButton}
        disabled={page <= 1 || isBusy}
        onClick={() => onGo(page - 1)}
        aria-label={t('previous')}
      >
        <ChevronLeftIcon size={16} />
      </button>
      {pageItemsOf(page, count).map((item, index) =>
        item === 'gap' ? (
          <span key={`gap-${index}`} className={styles.pageGap} aria-hidden="true">
            …
          </span>
        ) : (
          <button
            key={item}
            type="button"
            className={styles.pageButton}
            aria-current={item === page ? 'page' : undefined}
            aria-label={t('page', { page: item })}
            disabled={isBusy}
            onClick={() => item !== page && onGo(item)}
          >
            {item}
          </button>
        ),
      )}
      <button
        type="button"
        className={styles.pageButton}
        disabled={page >= count || isBusy}
        onClick={() => onGo(page + 1)}
        aria-label={t('next')}
      >
        <ChevronRightIcon size={16} />
      </button>
    </nav>
  );
}

export function OrderRecords({ initial }: { readonly initial: OrderPage | null }) {
  const t = useTranslations('orders.records');
  const router = useRouter();
  const { href } = useSiteLocale();
  const { status, user } = useSession();
  const [loaded, setLoaded] = useState<Loaded | null>(initial === null ? null : { page: 1, data: initial });
  const [pending, setPending] = useState<number | null>(initial === null ? 1 : null);
  // The page whose loading failed, for the retry button.
  const [failedPage, setFailedPage] = useState<number | null>(null);
  // The clock that decides whether an unpaid order's window has passed; read once per render batch.
  const [now, setNow] = useState(() => Math.floor(Date.now() / 1000));
  const topRef = useRef<HTMLDivElement>(null);
  const account = user?.username;
  const usertoken = user?.usertoken;

  const load = useCallback(
    async (page: number) => {
      try {
        const client = await apiClient();
        const answer = await client.call(endpoints.payorderlist, { account, usertoken, page, pagesize: ORDERS_PAGE_SIZE });
        setLoaded({ page, data: { orders: answer.orders, total: answer.total } });
        setNow(Math.floor(Date.now() / 1000));
      } catch (error) {
        // The session ended meanwhile: the page re-renders as the sign-in gate.
        if (isSessionRefused(error)) router.refresh();
        else setFailedPage(page);
      } finally {
        setPending(null);
      }
    },
    [account, usertoken, router],
  );

  // Without a first page from the server, the browser asks once it knows the session.
  const firstAsked = useRef(false);
  useEffect(() => {
    if (initial !== null || status === 'unknown' || firstAsked.current) return;
    firstAsked.current = true;
    void load(1);
  }, [initial, status, load]);

  function go(page: number) {
    setPending(page);
    setFailedPage(null);
    topRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    void load(page);
  }

  function retry() {
    go(failedPage ?? 1);
  }

  const hasFailed = failedPage !== null;

  if (loaded === null) {
    return (
      <div className={styles.placeholder} data-testid="orders-loading" aria-busy={!hasFailed}>
        {hasFailed ? (
          <>
            <p role="alert">{t('loadFailed')}</p>
            <button type="button" className={styles.secondaryButton} onClick={retry}>
              {t('retry')}
            </button>
          </>
        ) : (
          <>
            <Spinner size={28} />
            <p>{t('loading')}</p>
          </>
        )}
      </div>
    );
  }

  const { data, page } = loaded;
  if (data.total === 0 && data.orders.length === 0) {
    return (
      <section className={styles.empty} data-testid="orders-empty" aria-labelledby="orders-empty-title">
        <span className={styles.emptyIcon} aria-hidden="true">
          <ReceiptIcon size={30} />
        </span>
        <h2 id="orders-empty-title" className={styles.emptyTitle}>
          {t('empty.title')}
        </h2>
        <p className={styles.emptyText}>{t('empty.text')}</p>
        <Link className={styles.primaryButton} href={href('/buy.html')} data-testid="orders-empty-buy">
          {t('empty.link')}
        </Link>
      </section>
    );
  }

  const isBusy = pending !== null;
  return (
    <div className={styles.records} ref={topRef} data-testid="order-records">
      <div className={styles.recordsHead}>
        <p className={styles.summary}>{t('summary', { total: data.total })}</p>
        <p className={styles.hint}>{t('hint')}</p>
      </div>
      <div className={styles.tableWrap} aria-busy={isBusy}>
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">{t('columns.order')}</th>
              <th scope="col">{t('columns.amount')}</th>
              <th scope="col">{t('columns.state')}</th>
              <th scope="col">{t('columns.time')}</th>
              <th scope="col" className={styles.invoiceHead}>
                {t('columns.invoice')}
              </th>
            </tr>
          </thead>
          <tbody>
            {data.orders.map((order) => (
              <OrderRow key={order.orderno} order={order} now={now} />
            ))}
          </tbody>
        </table>
        {isBusy && (
          <div className={styles.busy}>
            <Spinner size={28} />
          </div>
        )}
      </div>
      {hasFailed && (
        <p className={styles.loadError} role="alert">
          {t('loadFailed')}
          <button type="button" className={styles.textButton} onClick={retry}>
            {t('retry')}
          </button>
        </p>
      )}
      <Pager page={pending ?? page} count={pageCountOf(data.total, ORDERS_PAGE_SIZE)} isBusy={isBusy} onGo={go} />
    </div>
  );
}
