'use client';

import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import { SUCCESS_CODE, endpoints, type TUserInfo } from '@xcad/protocol';
import { apiClient } from '@/lib/api/client';
import {
  INITIAL_POLL_STATE,
  LOGIN_POLL_LIMITS,
  isPolling,
  nextPollState,
  refusalOf,
  type PollState,
  type Refusal,
} from '@/lib/auth/login-flow';

// spec §4: the WeChat QR (and the QQ popup, which completes through the same logintag) is followed
// by polling wechatstate every second until a result or the retry limit.

export interface LoginPollerHandlers {
  onDone(user: TUserInfo): void;
  /** Polling stopped without a login: expired, illegal, or abandoned after a last poll. */
  onEnd?(state: PollState): void;
}

export interface LoginPoller {
  readonly state: PollState;
  /**
   * Polls at once (a message from the popup says it finished). With `isLast`, polling stops after
   * that answer unless it was a result (the popup was closed).
   */
  pollNow(options?: { isLast?: boolean }): void;
}

/** Polls while `logintag` is set; a new tag starts afresh, null (or unmounting) stops. */
export function useLoginPoller(logintag: string | null, handlers: LoginPollerHandlers): LoginPoller {
  const [result, setResult] = useState<{ logintag: string | null; state: PollState }>({ logintag: null, state: INITIAL_POLL_STATE });
  const pollNowRef = useRef<(isLast: boolean) => void>(() => {});
  const onDone = useEffectEvent((user: TUserInfo) => handlers.onDone(user));
  const onEnd = useEffectEvent((state: PollState) => handlers.onEnd?.(state));

  useEffect(() => {
    if (!logintag) return;
    const controller = new AbortController();
    let state = INITIAL_POLL_STATE;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let isStopped = false;
    let isInFlight = false;
    let isAgainWanted = false;
    let isLastWanted = false;

    const poll = async () => {
      if (isStopped) return;
      clearTimeout(timer);
      isInFlight = true;
      const isLast = isLastWanted;
      let refusal: Refusal = { code: SUCCESS_CODE, message: '' };
      let user: TUserInfo | null = null;
      try {
        const client = await apiClient();
        const answer = await client.call(endpoints.wechatstate, { logintag, showvip: 1 }, { signal: controller.signal });
        user = answer.userinfo;
      } catch (error) {
        refusal = refusalOf(error);
      }
      isInFlight = false;
      if (isStopped) return;
      state = nextPollState(state, refusal);
      setResult({ logintag, state });
      if (state.status === 'done' && user) {
        isStopped = true;
        onDone(user);
        return;
      }
      if (!isPolling(state.status)) {
        isStopped = true;
        onEnd(state);
        return;
      }
      // A request asked for while this one was under way may have missed the news: ask again now.
      if (isAgainWanted) {
        isAgainWanted = false;
        void poll();
        return;
      }
      if (isLast) {
        isStopped = true;
        onEnd(state);
        return;
      }
      timer = setTimeout(poll, LOGIN_POLL_LIMITS.intervalMs);
    };

    pollNowRef.current = (isLast) => {
      if (isStopped) return;
      if (isLast) isLastWanted = true;
      if (isInFlight) isAgainWanted = true;
      else void poll();
    };
    void poll();

    return () => {
      isStopped = true;
      clearTimeout(timer);
      controller.abort();
      pollNowRef.current = () => {};
    };
  }, [logintag]);

  const pollNow = useCallback((options: { isLast?: boolean } = {}) => pollNowRef.current(options.isLast === true), []);
  return { state: result.logintag === logintag ? result.state : INITIAL_POLL_STATE, pollNow };
}
