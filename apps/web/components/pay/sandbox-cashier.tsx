'use client';

import { SUCCESS_CODE, ZSandboxOrder, formatYuan, type TSandboxOrder } from '@xcad/protocol';
import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useState } from 'react';
import { LogoMark } from '@/components/site/logo';
import { cardClass } from '@/components/ui/card';
import { CheckIcon } from '@/components/ui/icons';
import { postDevRoute } from '@/lib/api/dev-routes';
import styles from './sandbox.module.css';

// /pay/sandbox/{orderno} (decision 0018): the sandbox provider's cashier, opened on a phone by scanning
// the QR of an order. It stands in for a payment app: it reads the order as the provider knows it
// (payorderstatedetails tells a phone without the buyer's session only the state, decision 0029)
// and pays or closes it through the dev routes, which go down the same notification path as a
// real provider's notice. The dev routes are plain JSON (unsigned) and answer 404 unless the
// sandbox provider is in use.

const ORDER_PATH = '/api/dev/pay/order';
const CONFIRM_PATH = '/api/dev/pay/confirm';
const CANCEL_PATH = '/api/dev/pay/cancel';

type Problem = { readonly kind: 'unsupported' | 'network' | 'failed' } | { readonly kind: 'server'; readonly message: string };

type Load =
  | { readonly state: 'loading' }
  | { readonly state: 'loaded'; readonly order: TSandboxOrder }
  | { readonly state: 'error'; readonly problem: Problem };

/** What a dev route answered: null for a 404 (no sandbox here), else its code, message and the order. */
async function postDev(path: string, orderno: string): Promise<{ code: number; message: string; order: TSandboxOrder | null } | null> {
  const answer = await postDevRoute(path, { orderno });
  if (answer === null) return null;
  const order = ZSandboxOrder.safeParse(answer.body);
  return { code: answer.code, message: answer.message, order: order.success ? order.data : null };
}

async function readOrder(orderno: string): Promise<Load> {
  try {
    const answer = await postDev(ORDER_PATH, orderno);
    if (answer === null) return { state: 'error', problem: { kind: 'unsupported' } };
    if (answer.code !== SUCCESS_CODE || answer.order === null)
      return { state: 'error', problem: answer.message ? { kind: 'server', message: answer.message } : { kind: 'failed' } };
    return { state: 'loaded', order: answer.order };
  } catch {
    return { state: 'error', problem: { kind: 'network' } };
  }
}

/**
 * Decision 0043: opened by a phone as the payment app (WeChat H5, Alipay WAP, the JSAPI sheet), the
 * cashier comes back to the result page it was given (`back`), as the real apps return to
 * redirect_url or return_url. Only this site's result page is accepted: never another host.
 */
function returnPathOf(search: string, orderno: string): string | null {
  const back = new URLSearchParams(search).get('back');
  return back === `/pay/result/${orderno}` || back?.startsWith(`/pay/result/${orderno}?`) === true ? back : null;
}

export function SandboxCashier({ orderno }: { readonly orderno: string }) {
  const t = useTranslations('pay');
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [action, setAction] = useState<'pay' | 'cancel' | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);

  const reload = useCallback(async () => {
    setLoad({ state: 'loading' });
    setLoad(await readOrder(orderno));
  }, [orderno]);

  useEffect(() => {
    let isCurrent = true;
    void readOrder(orderno).then((next) => isCurrent && setLoad(next));
    return () => {
      isCurrent = false;
    };
  }, [orderno]);

  const act = async (kind: 'pay' | 'cancel') => {
    if (action !== null) return;
    setAction(kind);
    setProblem(null);
    try {
      const answer = await postDev(kind === 'pay' ? CONFIRM_PATH : CANCEL_PATH, orderno);
      if (answer === null) setProblem({ kind: 'unsupported' });
      else if (answer.code !== SUCCESS_CODE) setProblem(answer.message ? { kind: 'server', message: answer.message } : { kind: 'failed' });
      else if (returnPathOf(window.location.search, orderno) !== null) {
        // The payment app returns to the shop's page, paid or not.
        window.location.assign(returnPathOf(window.location.search, orderno) ?? '/');
        return;
      }
      setLoad(await readOrder(orderno));
    } catch {
      setProblem({ kind: 'network' });
    } finally {
      setAction(null);
    }
  };

  const problemText = (value: Problem) =>
    value.kind === 'server' ? value.message || t('sandbox.errors.failed') : t(`sandbox.errors.${value.kind}`);
  const order = load.state === 'loaded' ? load.order : null;

  return (
    <section className={cardClass(styles.sheet)} data-testid="sandbox-cashier" aria-labelledby="sandbox-title">
      <div className={styles.brand}>
        <LogoMark size={48} />
        <h1 id="sandbox-title" className={styles.title}>
          {t('sandbox.title')}
        </h1>
      </div>
      <p className={styles.note} role="note">
        {t('sandbox.note')}
      </p>

      {load.state === 'loading' && (
        <p className={styles.status} role="status">
          {t('sandbox.loading')}
        </p>
      )}

      {load.state === 'error' && (
        <div className={styles.status} data-state="error" role="alert">
          <p>{problemText(load.problem)}</p>
          <button type="button" className={styles.linkButton} onClick={() => void reload()}>
            {t('sandbox.retry')}
          </button>
        </div>
      )}

      {order !== null && (
        <>
          <p className={styles.amount} data-testid="sandbox-amount">
            {formatYuan(order.amount)}
          </p>
          <dl className={styles.facts}>
            <div>
              <dt>{t('sandbox.subject')}</dt>
              <dd>{order.subject}</dd>
            </div>
            <div>
              <dt>{t('sandbox.payType')}</dt>
              <dd>{t(`payTypes.${order.paytype}`)}</dd>
            </div>
            <div>
              <dt>{t('sandbox.orderNo')}</dt>
              <dd className={styles.orderNo}>{order.orderno}</dd>
            </div>
            <div>
              <dt>{t('sandbox.state')}</dt>
              <dd data-testid="sandbox-state" data-state={order.state}>
                {t(`sandbox.states.${order.state}`)}
              </dd>
            </div>
          </dl>

          {problem !== null && (
            <p className={styles.status} data-state="error" role="alert">
              {problemText(problem)}
            </p>
          )}

          {order.state === 'unpaid' ? (
            <div className={styles.buttons}>
              <button
                type="button"
                className={styles.pay}
                data-testid="sandbox-pay"
                disabled={action !== null}
                onClick={() => void act('pay')}
              >
                {action === 'pay' ? t('sandbox.paying') : t('sandbox.pay')}
              </button>
              <button
                type="button"
                className={styles.cancel}
                data-testid="sandbox-cancel"
                disabled={action !== null}
                onClick={() => void act('cancel')}
              >
                {action === 'cancel' ? t('sandbox.cancelling') : t('sandbox.cancel')}
              </button>
            </div>
          ) : (
            <p className={styles.result} data-testid="sandbox-result" data-state={order.state} role="status">
              {order.state === 'paid' && (
                <span className={styles.resultMark} aria-hidden="true">
                  <CheckIcon size={16} />
                </span>
              )}
              {t(`sandbox.result.${order.state}`)}
            </p>
          )}
        </>
      )}
    </section>
  );
}
