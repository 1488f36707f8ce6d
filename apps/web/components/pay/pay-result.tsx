'use client';

import { endpoints, formatYuan, isOrderDetails, PAY_LIMITS, type TOrderDetails } from '@xcad/protocol';
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { useSession } from '@/components/auth/session-provider';
import { LogoMark } from '@/components/site/logo';
import { useSiteLocale } from '@/components/site/use-site-locale';
import { cardClass } from '@/components/ui/card';
import { CheckIcon } from '@/components/ui/icons';
import Link from '@/components/ui/link';
import { Spinner } from '@/components/ui/spinner';
import { apiClient } from '@/lib/api/client';
import { refusalOf } from '@/lib/auth/login-flow';
import { displayedStateOf, formatBeijingDate } from '@/lib/orders/orders';
import styles from './sandbox.module.css';

// /pay/result/{orderno} (decision 0043): a phone comes back here from the payment app. The page asks
// for the order every PAY_LIMITS.cashierPollMs (the notice may come a moment after the buyer) until
// it is paid or closed; once paid it shows the memberships the order opened, with their expiry.

type View =
  | { readonly kind: 'waiting' }
  | { readonly kind: 'signin' }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'order'; readonly order: TOrderDetails; readonly now: number };

interface Granted {
  readonly productid: number;
  readonly name: string;
  readonly expiry: number | null;
}

/** Polls stop after this many answers without a final state (a notice that never comes: the records page has it later). */
const MAX_POLLS = 150;

export function PayResult({ orderno }: { readonly orderno: string }) {
  const t = useTranslations('pay.result');
  const { href } = useSiteLocale();
  const { status, user, refreshMembership } = useSession();
  const [view, setView] = useState<View>({ kind: 'waiting' });
  const [granted, setGranted] = useState<readonly Granted[]>([]);

  useEffect(() => {
    if (status === 'unknown' || user === null) return;
    let isStopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const signed = { account: user.username, usertoken: user.usertoken };
    const poll = async (count: number): Promise<void> => {
      try {
        const client = await apiClient();
        const answer = await client.call(endpoints.payorderstatedetails, { orderno, ...signed });
        if (isStopped) return;
        if (!isOrderDetails(answer)) {
          setView({ kind: 'signin' });
          return;
        }
        const now = client.nowSeconds();
        setView({ kind: 'order', order: answer, now });
        if (answer.state === 'paid') {
          const roles = await Promise.all(
            answer.items.map(async (item) => {
              const role = await client.call(endpoints.memrole, { ...signed, productid: item.productid });
              return { productid: item.productid, name: item.productname, expiry: role.userinfo.vip[0]?.auth_value ?? null };
            }),
          );
          if (!isStopped) setGranted(roles);
          void refreshMembership();
          return;
        }
        if (displayedStateOf(answer, now) === 'closed' || count >= MAX_POLLS) return;
      } catch (error) {
        if (isStopped) return;
        setView({ kind: 'error', message: refusalOf(error).message });
      }
      timer = setTimeout(() => void poll(count + 1), PAY_LIMITS.cashierPollMs);
    };
    void poll(1);
    return () => {
      isStopped = true;
      clearTimeout(timer);
    };
  }, [orderno, status, user, refreshMembership]);

  const isSignedOut = status !== 'unknown' && user === null;
  const order = view.kind === 'order' && !isSignedOut ? view.order : null;
  const state = order === null || view.kind !== 'order' ? null : displayedStateOf(order, view.now);

  return (
    <section
      className={cardClass(styles.sheet)}
      data-testid="pay-result"
      data-state={state ?? view.kind}
      aria-labelledby="pay-result-title"
    >
      <div className={styles.brand}>
        <LogoMark size={48} />
        <h1 id="pay-result-title" className={styles.title}>
          {state === 'paid' ? t('paid') : state === 'closed' ? t('closed') : t('title')}
        </h1>
      </div>

      {!isSignedOut && (view.kind === 'waiting' || state === 'unpaid') && (
        <p className={styles.status} role="status" data-testid="pay-result-waiting">
          <Spinner />
          {t('waiting')}
        </p>
      )}
      {(isSignedOut || view.kind === 'signin') && (
        <p className={styles.status} role="alert">
          {t('signin')}
        </p>
      )}
      {view.kind === 'error' && (
        <p className={styles.status} data-state="error" role="alert">
          {view.message}
        </p>
      )}

      {order !== null && (
        <>
          <p className={styles.amount}>{formatYuan(order.amount)}</p>
          <dl className={styles.facts}>
            <div>
              <dt>{t('subject')}</dt>
              <dd>{order.subject}</dd>
            </div>
            <div>
              <dt>{t('orderNo')}</dt>
              <dd className={styles.orderNo}>{order.orderno}</dd>
            </div>
          </dl>
        </>
      )}

      {state === 'paid' && (
        <div className={styles.result} data-testid="pay-result-paid" role="status">
          <span className={styles.resultMark} aria-hidden="true">
            <CheckIcon size={16} />
          </span>
          <ul data-testid="pay-result-memberships">
            {granted.map((role) => (
              <li key={role.productid} data-productid={role.productid}>
                {role.expiry === null
                  ? role.name
                  : t('membership', { product: role.name, date: formatBeijingDate(role.expiry).replace(/-/g, '/') })}
              </li>
            ))}
          </ul>
        </div>
      )}
      {state === 'closed' && <p className={styles.status}>{t('closedText')}</p>}

      <p className={styles.status}>
        <Link href={href('/personal-buy.html')} data-testid="pay-result-records">
          {t('records')}
        </Link>
      </p>
    </section>
  );
}
