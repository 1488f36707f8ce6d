'use client';

import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import {
  ApiClientError,
  AUTH_ERRORS,
  PAY_ERRORS,
  PAY_LIMITS,
  endpoints,
  isOrderDetails,
  type TOrderCreated,
  type TPayScene,
  type TPayType,
  type TUserInfo,
} from '@xcad/protocol';
import { useSession } from '@/components/auth/session-provider';
import { apiClient } from '@/lib/api/client';
import { refusalOf } from '@/lib/auth/login-flow';
import { isSessionRefused } from '@/lib/auth/session-refused';
import { goToWechatAuth } from '@/lib/pay/pending-purchase';
import { needsBrowserGuide, paySceneOf } from '@/lib/pay/scene';
import {
  cashierReducer,
  initialCashierState,
  isFinalPollRefusal,
  isPollingPaused,
  type CashierPurchase,
  type CashierState,
} from '@/lib/pay/cashier';

// The cashier's calls and timers (decision 0018): places the order once the buyer is signed in, asks
// for its state every PAY_LIMITS.cashierPollMs until it is paid or closed, pauses while the tab
// has been hidden for a while and asks at once when it is shown again. lib/pay/cashier.ts decides.

export interface Cashier {
  readonly state: CashierState;
  /** The server's clock (epoch seconds), ticking every second while an order waits. */
  readonly nowSeconds: number;
  /** Decision 0043: where the page runs (desktop QR, phone app, WeChat JSAPI). */
  readonly scene: TPayScene;
  /** A new order with this pay type (the switch, 重新下单, 重试). */
  place(paytype: TPayType): void;
  retryPoll(): void;
}

async function placeOrder(purchase: CashierPurchase, user: TUserInfo, paytype: TPayType, scene: TPayScene): Promise<TOrderCreated> {
  const client = await apiClient();
  const signedIn = { account: user.username, usertoken: user.usertoken };
  if (purchase.kind === 'package') {
    return client.call(endpoints.memorder, { ...signedIn, productid: purchase.productid, packageid: purchase.packageid, paytype, scene });
  }
  return client.call(endpoints.paymerge, { ...signedIn, packageids: [...purchase.packageids], paytype, scene });
}

/** The server needs the buyer's openid first (JSAPI inside WeChat): off to WeChat's OAuth and back. */
function isWechatAuthRefusal(error: unknown): boolean {
  return error instanceof ApiClientError && (PAY_ERRORS.wechatAuth.codes as readonly number[]).includes(refusalOf(error).code);
}

const serverNow = (offsetSeconds: number) => Math.floor(Date.now() / 1000) + offsetSeconds;

export function useCashier(purchase: CashierPurchase, paytype: TPayType): Cashier {
  const { user } = useSession();
  // The modal opens only in the browser after a click, when the stored session has been read.
  const [state, dispatch] = useReducer(cashierReducer, null, () => initialCashierState(user !== null, paytype));
  const [scene] = useState<TPayScene>(() => (typeof navigator === 'undefined' ? 'desktop' : paySceneOf(navigator.userAgent)));
  // Server minus browser clock: the countdown runs on the server's time, as the order's expiry does.
  const offsetSeconds = useRef(0);
  const [nowSeconds, setNowSeconds] = useState(() => serverNow(0));
  // The last placing started: React may run an effect twice, an order must be placed once.
  const startedAttempt = useRef(0);

  // A visitor who signed in (here or in another tab) continues to the order.
  useEffect(() => {
    if (state.step === 'signin' && user !== null && user.usertoken !== state.refusedToken) dispatch({ type: 'signedIn' });
  }, [state, user]);

  useEffect(() => {
    if (state.step !== 'placing' || startedAttempt.current >= state.attempt) return;
    // Alipay inside WeChat: no order, the cashier shows the open-in-browser guide.
    if (needsBrowserGuide(scene, state.paytype)) return;
    const { attempt } = state;
    startedAttempt.current = attempt;
    if (user === null) {
      dispatch({ type: 'placeFailed', attempt, message: '', refusedToken: '' });
      return;
    }
    const { paytype: chosen } = state;
    placeOrder(purchase, user, chosen, scene).then(
      async (order) => {
        offsetSeconds.current = (await apiClient()).timeOffsetSeconds;
        setNowSeconds(serverNow(offsetSeconds.current));
        dispatch({ type: 'placed', attempt, order });
      },
      (error: unknown) => {
        if (isWechatAuthRefusal(error)) {
          goToWechatAuth({ purchase, paytype: chosen });
          return;
        }
        dispatch({
          type: 'placeFailed',
          attempt,
          message: refusalOf(error).message,
          refusedToken: isSessionRefused(error) ? user.usertoken : null,
        });
      },
    );
  }, [state, user, purchase, scene]);

  const orderno = state.step === 'waiting' ? state.order.orderno : null;
  const account = user?.username;
  const usertoken = user?.usertoken;

  useEffect(() => {
    if (orderno === null) return;
    const current = orderno;
    let isStopped = false;
    let isInFlight = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let hiddenSince: number | null = document.hidden ? Date.now() : null;

    const poll = async (): Promise<void> => {
      // Hidden for long: stop asking until the tab is shown again.
      if (isStopped || isInFlight || isPollingPaused(hiddenSince, Date.now())) return;
      isInFlight = true;
      try {
        const client = await apiClient();
        const answer = await client.call(endpoints.payorderstatedetails, { orderno: current, account, usertoken });
        // Only the buyer gets the details; a state alone means the server no longer takes this session.
        if (!isStopped && isOrderDetails(answer)) dispatch({ type: 'polled', details: answer, nowSeconds: client.nowSeconds() });
        else if (!isStopped) dispatch({ type: 'pollFailed', orderno: current, message: AUTH_ERRORS.notSignedIn.message, isFinal: true });
      } catch (error) {
        const refusal = refusalOf(error);
        const isFinal = error instanceof ApiClientError && isFinalPollRefusal(refusal.code);
        if (!isStopped) dispatch({ type: 'pollFailed', orderno: current, message: refusal.message, isFinal });
      } finally {
        isInFlight = false;
      }
      schedule();
    };

    function schedule(): void {
      clearTimeout(timer);
      if (!isStopped) timer = setTimeout(() => void poll(), PAY_LIMITS.cashierPollMs);
    }

    const onVisibility = () => {
      if (document.hidden) {
        hiddenSince = Date.now();
        return;
      }
      hiddenSince = null;
      // Back from paying on the phone: ask now rather than at the next tick.
      clearTimeout(timer);
      void poll();
    };

    document.addEventListener('visibilitychange', onVisibility);
    schedule();
    return () => {
      isStopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [orderno, account, usertoken]);

  const isWaiting = state.step === 'waiting';
  useEffect(() => {
    if (!isWaiting) return;
    const timer = setInterval(() => setNowSeconds(serverNow(offsetSeconds.current)), 1000);
    return () => clearInterval(timer);
  }, [isWaiting]);

  const place = useCallback((next: TPayType) => dispatch({ type: 'place', paytype: next }), []);
  const retryPoll = useCallback(() => dispatch({ type: 'retryPoll' }), []);
  return { state, nowSeconds, scene, place, retryPoll };
}
