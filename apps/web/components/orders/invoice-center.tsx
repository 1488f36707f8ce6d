'use client';

import { endpoints } from '@xcad/protocol';
import type { TInvoice, TOrderDetails } from '@xcad/protocol';
import { usePathname, useSearchParams } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { useSession } from '@/components/auth/session-provider';
import { useSiteLocale } from '@/components/site/use-site-locale';
import { cardClass } from '@/components/ui/card';
import { ReceiptIcon } from '@/components/ui/icons';
import Link from '@/components/ui/link';
import { Spinner } from '@/components/ui/spinner';
import { apiClient } from '@/lib/api/client';
import { isSessionRefused } from '@/lib/auth/session-refused';
import { fetchAllPaidOrders, sortedInvoices, withInvoice } from '@/lib/orders/invoice-data';
import { invoiceableOrders, preselectedOrderNo } from '@/lib/orders/orders';
import { SigninGate } from '@/components/personal/signin-gate';
import { InvoiceForm } from './invoice-form';
import type { Signed } from './invoice-form';
import { InvoiceList } from './invoice-list';
import formPage from '@/components/ui/form-page.module.css';
import styles from './invoice.module.css';

// /invoice.html (decision 0018): a public page whose content needs the account. Visitors get a sign-in
// prompt (the login modal opens by itself on desktop); a signed-in user gets their paid orders
// without an invoice to choose from, the form, and the invoices applied for so far.

interface InvoiceData {
  readonly choices: readonly TOrderDetails[];
  readonly invoices: readonly TInvoice[];
}

/** What was read for which session and which attempt (a retry or a new sign-in asks again). */
type Loaded = { readonly token: string; readonly attempt: number } & (
  ({ readonly phase: 'ready' } & InvoiceData) | { readonly phase: 'failed' } | { readonly phase: 'refused' }
);

async function loadInvoiceData(signed: Signed): Promise<InvoiceData> {
  const client = await apiClient();
  const [orders, list] = await Promise.all([
    fetchAllPaidOrders((page, pagesize) => client.call(endpoints.payorderlist, { ...signed, page, pagesize, state: 'paid' })),
    client.call(endpoints.invoicelist, signed),
  ]);
  return { choices: invoiceableOrders(orders), invoices: sortedInvoices(list.invoices) };
}

/** The sign-in prompt with this page's words; /loginPhone brings the visitor back with the query. */
function InvoiceGate() {
  const t = useTranslations('orders.invoice.gate');
  const pathname = usePathname();
  const query = useSearchParams().toString();
  return (
    <SigninGate
      copy={{ title: t('title'), text: t('text') }}
      returnTo={query ? `${pathname}?${query}` : pathname}
      refreshOnSignIn={false}
    />
  );
}

function Loading() {
  const t = useTranslations('orders.invoice');
  return (
    <div className={styles.placeholder} data-testid="invoice-loading" aria-busy="true">
      <Spinner size={28} />
      <p>{t('loading')}</p>
    </div>
  );
}

function NoOrders() {
  const t = useTranslations('orders.invoice.noOrders');
  const { href } = useSiteLocale();
  return (
    <section
      className={cardClass(formPage.formCard, styles.noOrders)}
      data-testid="invoice-no-orders"
      aria-labelledby="invoice-no-orders-title"
    >
      <span className={styles.noOrdersIcon} aria-hidden="true">
        <ReceiptIcon size={28} />
      </span>
      <h2 id="invoice-no-orders-title" className={styles.noOrdersTitle}>
        {t('title')}
      </h2>
      <p className={styles.noOrdersText}>{t('text')}</p>
      <div className={styles.doneActions}>
        <Link className={formPage.primary} href={href('/personal-buy.html')}>
          {t('records')}
        </Link>
        <Link className={formPage.secondary} href={href('/buy.html')}>
          {t('buy')}
        </Link>
      </div>
    </section>
  );
}

export function InvoiceCenter() {
  const t = useTranslations('orders.invoice');
  const { status, user } = useSession();
  const searchParams = useSearchParams();
  const requested = searchParams.get('orderno');
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [hasSubmitted, setHasSubmitted] = useState(false);
  const token = user?.usertoken ?? null;
  const account = user?.username ?? '';

  useEffect(() => {
    if (token === null) return;
    let isCurrent = true;
    loadInvoiceData({ account, usertoken: token }).then(
      (data) => {
        if (isCurrent) setLoaded({ token, attempt, phase: 'ready', ...data });
      },
      (error: unknown) => {
        if (isCurrent) setLoaded({ token, attempt, phase: isSessionRefused(error) ? 'refused' : 'failed' });
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [token, account, attempt]);

  if (status === 'unknown') return <Loading />;
  if (token === null) return <InvoiceGate />;
  if (loaded === null || loaded.token !== token || loaded.attempt !== attempt) return <Loading />;
  if (loaded.phase === 'refused') return <InvoiceGate />;
  if (loaded.phase === 'failed') {
    return (
      <div className={styles.placeholder} data-testid="invoice-load-failed">
        <p role="alert">{t('loadFailed')}</p>
        <button type="button" className={formPage.secondary} onClick={() => setAttempt((value) => value + 1)}>
          {t('retry')}
        </button>
      </div>
    );
  }

  const signed: Signed = { account, usertoken: token };
  const ready = loaded;
  const update = (change: (data: InvoiceData) => InvoiceData) =>
    setLoaded((previous) =>
      previous !== null && previous.phase === 'ready' && previous.token === token ? { ...previous, ...change(previous) } : previous,
    );

  function submitted(invoice: TInvoice) {
    setHasSubmitted(true);
    update((data) => ({
      choices: data.choices.filter((order) => order.orderno !== invoice.orderno),
      invoices: withInvoice(data.invoices, invoice),
    }));
  }

  function orderGone(orderno: string) {
    update((data) => ({ ...data, choices: data.choices.filter((order) => order.orderno !== orderno) }));
    // Applied for elsewhere (another tab): its invoice belongs in the list.
    void apiClient()
      .then((client) => client.call(endpoints.invoicelist, signed))
      .then((list) => update((data) => ({ ...data, invoices: sortedInvoices(list.invoices) })))
      .catch(() => undefined);
  }

  const preselected = preselectedOrderNo(ready.choices, requested);
  return (
    <div className={styles.main}>
      {preselected.isRequestedUnavailable && !hasSubmitted && requested !== null && (
        <p className={styles.notice} role="status" data-testid="invoice-requested-unavailable">
          {t('form.requestedUnavailable', { orderno: requested })}
        </p>
      )}
      {ready.choices.length > 0 || hasSubmitted ? (
        <InvoiceForm
          choices={ready.choices}
          initialOrderNo={preselected.orderno}
          signed={signed}
          onSubmitted={submitted}
          onOrderGone={orderGone}
          onSessionRefused={() => setLoaded({ token, attempt, phase: 'refused' })}
        />
      ) : (
        <NoOrders />
      )}
      <InvoiceList invoices={ready.invoices} />
    </div>
  );
}
