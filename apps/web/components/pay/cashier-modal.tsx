'use client';

import { useEffect, useMemo, useRef } from 'react';
import type { ReactNode } from 'react';
import { useFormatter, useTranslations } from 'next-intl';
import { renderSVG } from 'uqr';
import {
  PAY_LIMITS,
  PAY_TYPES,
  formatYuan,
  payResultPath,
  type TAnalyticsEventInput,
  type TJsapiParams,
  type TOrderCreated,
  type TOrderDetails,
  type TPayScene,
  type TPayType,
} from '@xcad/protocol';
import { useSession } from '@/components/auth/session-provider';
import { useSiteLocale } from '@/components/site/use-site-locale';
import { CheckIcon, ClockIcon, CloseIcon } from '@/components/ui/icons';
import { cycleTab, useModal } from '@/components/ui/use-modal';
import Link from '@/components/ui/link';
import { Spinner } from '@/components/ui/spinner';
import { track } from '@/lib/analytics/browser';
import { addPaymentInfoEvent, checkoutEvent, purchaseEvent } from '@/lib/analytics/events';
import { needsBrowserGuide } from '@/lib/pay/scene';
import {
  formatCountdown,
  isSandboxPayUrl,
  secondsUntil,
  type CashierFailure,
  type CashierPurchase,
  type CashierState,
} from '@/lib/pay/cashier';
import { CashierSignin } from './cashier-signin';
import { PayTypeIcon } from './pay-type-icon';
import { useCashier } from './use-cashier';
import styles from './cashier.module.css';

// The cashier modal (decision 0018): sign-in for visitors, then the order's QR code with the amount, the
// order number, a countdown and the switch between WeChat Pay and Alipay; success or failure when
// the polled order is paid or closed. A bottom sheet at 750 px and below, like the login modal.

function ModalFrame({ title, onClose, children }: { readonly title: string; readonly onClose: () => void; readonly children: ReactNode }) {
  const t = useTranslations('pay.cashier');
  const dialog = useRef<HTMLDivElement>(null);

  useModal(dialog, onClose);

  return (
    <div className={styles.backdrop} onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div
        ref={dialog}
        className={styles.dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby="cashier-title"
        tabIndex={-1}
        data-testid="cashier"
        onKeyDown={(event) => cycleTab(event, dialog.current)}
      >
        <header className={styles.header}>
          <h2 id="cashier-title" className={styles.title}>
            {t('title')}
          </h2>
          <p className={styles.item}>
            <span className={styles.itemLabel}>{t('item')}</span>
            <span className={styles.itemName} data-testid="cashier-item">
              {title}
            </span>
          </p>
          <button type="button" className={styles.close} data-testid="cashier-close" aria-label={t('close')} onClick={onClose}>
            <CloseIcon size={20} />
          </button>
        </header>
        <div className={styles.body}>{children}</div>
      </div>
    </div>
  );
}

function QrCode({ payurl, label }: { readonly payurl: string; readonly label: string }) {
  // Built here by uqr from the order's own payurl: rectangles only, nothing from the network.
  const svg = useMemo(() => renderSVG(payurl, { border: 0, ecc: 'M', blackColor: '#1f2329' }), [payurl]);
  return <div className={styles.qrImage} role="img" aria-label={label} dangerouslySetInnerHTML={{ __html: svg }} />;
}

function PayTypeSwitch({
  paytype,
  isBusy,
  onSwitch,
}: {
  readonly paytype: TPayType;
  readonly isBusy: boolean;
  readonly onSwitch: (paytype: TPayType) => void;
}) {
  const t = useTranslations('pay');
  return (
    <div className={styles.switch} role="radiogroup" aria-label={t('plans.payType')}>
      {PAY_TYPES.map((type) => (
        <button
          key={type}
          type="button"
          role="radio"
          aria-checked={type === paytype}
          className={styles.switchOption}
          data-testid={`cashier-paytype-${type}`}
          data-paytype={type}
          disabled={isBusy}
          onClick={() => type !== paytype && onSwitch(type)}
        >
          <PayTypeIcon paytype={type} size={18} />
          {t(`payTypes.${type}`)}
        </button>
      ))}
    </div>
  );
}

interface WeixinBridge {
  invoke(name: 'getBrandWCPayRequest', params: TJsapiParams, done: (answer: { err_msg?: string }) => void): void;
}

/**
 * JSAPI (decision 0043): WeChat's pay sheet through WeixinJSBridge, then the result page whatever
 * the buyer did (it polls the order). Outside WeChat (the sandbox in a test browser) there is no
 * bridge: the sandbox's stand-in for the sheet opens instead.
 */
function payInWechat(order: TOrderCreated): void {
  const bridge = (window as { WeixinJSBridge?: WeixinBridge }).WeixinJSBridge;
  if (bridge !== undefined && order.jsapi !== null) {
    bridge.invoke('getBrandWCPayRequest', order.jsapi, () => window.location.assign(payResultPath(order.orderno)));
    return;
  }
  if (order.payurl !== '') window.location.assign(order.payurl);
}

/** On a phone (decision 0043): a button that opens the payment app (or WeChat's pay sheet), no QR. */
function AppButton({ order, paytype }: { readonly order: TOrderCreated | null; readonly paytype: TPayType }) {
  const t = useTranslations('pay');
  if (order === null) {
    return (
      <div className={styles.qrPending}>
        <Spinner />
        <span>{t('cashier.placing')}</span>
      </div>
    );
  }
  if (order.scene === 'wechat') {
    return (
      <>
        <button
          type="button"
          className={`${styles.primaryButton} ${styles.appButton}`}
          data-testid="cashier-jsapi-pay"
          onClick={() => payInWechat(order)}
        >
          <PayTypeIcon paytype={paytype} size={18} />
          {t('cashier.jsapiPay')}
        </button>
        <p className={styles.scanHint}>{t('cashier.jsapiHint')}</p>
      </>
    );
  }
  return (
    <>
      <a
        className={`${styles.primaryButton} ${styles.appButton}`}
        href={order.payurl}
        data-testid="cashier-open-app"
        data-paytype={paytype}
      >
        <PayTypeIcon paytype={paytype} size={18} />
        {t(`cashier.openApp.${paytype}`)}
      </a>
      <p className={styles.scanHint}>{t('cashier.openAppHint', { payType: t(`payTypes.${paytype}`) })}</p>
    </>
  );
}

/** Alipay inside WeChat's browser: how to open the page in the system browser (no order is placed). */
function BrowserGuide() {
  const t = useTranslations('pay.cashier.guide');
  return (
    <div className={styles.guide} data-testid="cashier-browser-guide" role="note">
      <strong>{t('title')}</strong>
      <p>{t('text')}</p>
    </div>
  );
}

/** The QR view: while an order is being placed (first or after a switch) its QR box spins. */
function PayView({
  paytype,
  scene,
  order,
  amount,
  nowSeconds,
  onSwitch,
}: {
  readonly paytype: TPayType;
  readonly scene: TPayScene;
  readonly order: TOrderCreated | null;
  readonly amount: number;
  readonly nowSeconds: number;
  readonly onSwitch: (paytype: TPayType) => void;
}) {
  const t = useTranslations('pay');
  const payTypeName = t(`payTypes.${paytype}`);
  const isSandbox = order !== null && isSandboxPayUrl(order.payurl);
  if (scene !== 'desktop') {
    const isGuide = needsBrowserGuide(scene, paytype);
    return (
      <section
        className={styles.pay}
        data-testid="cashier-pay"
        data-paytype={paytype}
        data-scene={scene}
        aria-busy={order === null && !isGuide}
      >
        <p className={styles.amountRow}>
          <span>{t('cashier.amount')}</span>
          <strong className={styles.amount} data-testid="cashier-amount">
            {formatYuan(order?.amount ?? amount)}
          </strong>
        </p>
        <PayTypeSwitch paytype={paytype} isBusy={order === null && !isGuide} onSwitch={onSwitch} />
        {isGuide ? <BrowserGuide /> : <AppButton order={order} paytype={paytype} />}
        {order !== null && !isGuide && (
          <p className={styles.orderNo}>
            {t('cashier.orderNo')}
            <span data-testid="cashier-orderno">{order.orderno}</span>
          </p>
        )}
      </section>
    );
  }
  return (
    <section className={styles.pay} data-testid="cashier-pay" data-paytype={paytype} aria-busy={order === null}>
      <p className={styles.amountRow}>
        <span>{t('cashier.amount')}</span>
        <strong className={styles.amount} data-testid="cashier-amount">
          {formatYuan(order?.amount ?? amount)}
        </strong>
      </p>
      <PayTypeSwitch paytype={paytype} isBusy={order === null} onSwitch={onSwitch} />
      <div className={styles.qrBox} data-paytype={paytype}>
        {order === null ? (
          <div className={styles.qrPending}>
            <Spinner />
            <span>{t('cashier.placing')}</span>
          </div>
        ) : (
          <div className={styles.qrFrame} data-testid="cashier-qr" data-payurl={order.payurl}>
            <QrCode payurl={order.payurl} label={t('cashier.qrLabel', { payType: payTypeName })} />
          </div>
        )}
      </div>
      <p className={styles.scanHint}>
        <PayTypeIcon paytype={paytype} size={18} />
        {t(`cashier.scan.${paytype}`)}
      </p>
      <p className={styles.mobileHint}>{t('cashier.mobileHint')}</p>
      {order !== null && (
        <>
          <p className={styles.countdown} data-testid="cashier-countdown">
            <ClockIcon size={16} />
            <span>
              {t.rich('cashier.countdown', {
                time: formatCountdown(secondsUntil(order.expiretime, nowSeconds)),
                em: (chunks) => <time className={styles.countdownTime}>{chunks}</time>,
              })}
            </span>
          </p>
          <p className={styles.orderNo}>
            {t('cashier.orderNo')}
            <span data-testid="cashier-orderno">{order.orderno}</span>
          </p>
          {isSandbox && (
            <p className={styles.sandbox}>
              <a href={order.payurl} target="_blank" rel="noopener" data-testid="cashier-sandbox-link">
                {t('cashier.sandbox')}
              </a>
              <span>{t('cashier.sandboxNote')}</span>
            </p>
          )}
          <p className={styles.autoRefresh}>{t('cashier.autoRefresh')}</p>
        </>
      )}
    </section>
  );
}

function PaidView({ details, onClose }: { readonly details: TOrderDetails; readonly onClose: () => void }) {
  const t = useTranslations('pay.cashier');
  const format = useFormatter();
  const { href } = useSiteLocale();
  return (
    <section className={styles.result} data-testid="cashier-success" role="status">
      <span className={`${styles.resultIcon} ${styles.resultGood}`} aria-hidden="true">
        <CheckIcon size={30} />
      </span>
      <h3 className={styles.resultTitle}>{t('paid.title')}</h3>
      <p className={styles.resultText}>{t('paid.text')}</p>
      <dl className={styles.receipt}>
        <div>
          <dt>{t('paid.item')}</dt>
          <dd data-testid="cashier-success-subject">{details.subject}</dd>
        </div>
        <div>
          <dt>{t('paid.amount')}</dt>
          <dd>{formatYuan(details.amount)}</dd>
        </div>
        <div>
          <dt>{t('orderNo')}</dt>
          <dd>{details.orderno}</dd>
        </div>
        {details.paidtime !== null && (
          <div>
            <dt>{t('paid.paidAt')}</dt>
            <dd>{format.dateTime(new Date(details.paidtime * 1000), { dateStyle: 'medium', timeStyle: 'short' })}</dd>
          </div>
        )}
      </dl>
      <div className={styles.actions}>
        <Link className={styles.secondaryButton} href={href('/personal-buy.html')} data-testid="cashier-records" onClick={onClose}>
          {t('paid.records')}
        </Link>
        <button type="button" className={styles.primaryButton} data-testid="cashier-done" onClick={onClose}>
          {t('paid.done')}
        </button>
      </div>
    </section>
  );
}

function FailedView({ reason, onAgain }: { readonly reason: CashierFailure; readonly onAgain: () => void }) {
  const t = useTranslations('pay.cashier.failed');
  return (
    <section className={styles.result} data-testid="cashier-failure" data-reason={reason} role="status">
      <span className={`${styles.resultIcon} ${styles.resultBad}`} aria-hidden="true">
        {reason === 'expired' ? <ClockIcon size={28} /> : <CloseIcon size={28} />}
      </span>
      <h3 className={styles.resultTitle}>{t(reason)}</h3>
      <p className={styles.resultText}>
        {reason === 'expired' ? t('expiredText', { minutes: PAY_LIMITS.orderTtlSeconds / 60 }) : t('closedText')}
      </p>
      <div className={styles.actions}>
        <button type="button" className={styles.primaryButton} data-testid="cashier-again" onClick={onAgain}>
          {t('again')}
        </button>
      </div>
    </section>
  );
}

function ErrorView({ message, isPoll, onRetry }: { readonly message: string; readonly isPoll: boolean; readonly onRetry: () => void }) {
  const t = useTranslations('pay.cashier.error');
  return (
    <section className={styles.result} data-testid="cashier-error" role="alert">
      <span className={`${styles.resultIcon} ${styles.resultWarn}`} aria-hidden="true">
        !
      </span>
      <h3 className={styles.resultTitle}>{isPoll ? t('pollTitle') : t('title')}</h3>
      <p className={styles.resultText} data-testid="cashier-error-message">
        {message}
      </p>
      {isPoll && <p className={styles.resultHint}>{t('pollText')}</p>}
      <div className={styles.actions}>
        <button type="button" className={styles.primaryButton} data-testid="cashier-retry" onClick={onRetry}>
          {t('retry')}
        </button>
      </div>
    </section>
  );
}

function StepView({
  state,
  scene,
  purchase,
  nowSeconds,
  place,
  retryPoll,
  onClose,
}: {
  readonly state: CashierState;
  readonly scene: TPayScene;
  readonly purchase: CashierPurchase;
  readonly nowSeconds: number;
  readonly place: (paytype: TPayType) => void;
  readonly retryPoll: () => void;
  readonly onClose: () => void;
}) {
  switch (state.step) {
    case 'signin':
      return <CashierSignin isSessionExpired={state.refusedToken !== null} />;
    case 'placing':
      return (
        <PayView paytype={state.paytype} scene={scene} order={null} amount={purchase.price} nowSeconds={nowSeconds} onSwitch={place} />
      );
    case 'waiting':
      return (
        <PayView
          paytype={state.paytype}
          scene={scene}
          order={state.order}
          amount={purchase.price}
          nowSeconds={nowSeconds}
          onSwitch={place}
        />
      );
    case 'paid':
      return <PaidView details={state.details} onClose={onClose} />;
    case 'failed':
      return <FailedView reason={state.reason} onAgain={() => place(state.paytype)} />;
    case 'error':
      return (
        <ErrorView
          message={state.message}
          isPoll={state.retry === 'poll'}
          onRetry={state.retry === 'poll' ? retryPoll : () => place(state.paytype)}
        />
      );
  }
}

/**
 * The purchase funnel (decision 0022): checkout when the cashier opens for a plan, add_payment_info when an
 * order's QR code is shown (again for each new order), purchase once when it is paid.
 */
function useCheckoutEvents(purchase: CashierPurchase, state: CashierState): void {
  const reported = useRef(new Set<string>());
  const shownOrder = state.step === 'waiting' ? state.order : null;
  const paidOrder = state.step === 'paid' ? state.details : null;
  useEffect(() => {
    const once = (key: string, event: () => TAnalyticsEventInput) => {
      if (reported.current.has(key)) return;
      reported.current.add(key);
      track(event());
    };
    once('checkout', () => checkoutEvent(purchase));
    if (shownOrder) once(`shown:${shownOrder.orderno}`, () => addPaymentInfoEvent(purchase, shownOrder));
    if (paidOrder) once(`paid:${paidOrder.orderno}`, () => purchaseEvent(purchase, paidOrder));
  }, [purchase, shownOrder, paidOrder]);
}

export function CashierModal({
  purchase,
  paytype,
  onClose,
}: {
  readonly purchase: CashierPurchase;
  readonly paytype: TPayType;
  readonly onClose: () => void;
}) {
  const { refreshMembership } = useSession();
  const { state, nowSeconds, scene, place, retryPoll } = useCashier(purchase, paytype);
  const paidOrder = state.step === 'paid' ? state.order.orderno : null;
  const refreshedFor = useRef<string | null>(null);
  useCheckoutEvents(purchase, state);

  // The header's drop-down and the personal pages show the new membership at once (once per order).
  useEffect(() => {
    if (paidOrder === null || refreshedFor.current === paidOrder) return;
    refreshedFor.current = paidOrder;
    void refreshMembership();
  }, [paidOrder, refreshMembership]);

  return (
    <ModalFrame title={purchase.title} onClose={onClose}>
      <StepView
        state={state}
        scene={scene}
        purchase={purchase}
        nowSeconds={nowSeconds}
        place={place}
        retryPoll={retryPoll}
        onClose={onClose}
      />
    </ModalFrame>
  );
}
