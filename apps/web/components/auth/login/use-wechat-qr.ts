'use client';

import { useCallback, useEffect, useState } from 'react';
import { endpoints, type TUserInfo } from '@xcad/protocol';
import { track } from '@/lib/analytics/browser';
import { loginEvent, qrLoginFailure } from '@/lib/analytics/events';
import { apiClient } from '@/lib/api/client';
import {
  LOGIN_SESSION_STORAGE_KEY,
  cachedSessionOf,
  readCachedSession,
  refusalOf,
  type CachedLoginSession,
  type PollStatus,
} from '@/lib/auth/login-flow';
import { useLoginPoller } from './use-login-poller';

// spec §4: the WeChat QR view gets a logintag, polls its state, and keeps the session 60 s so that
// reopening the modal shows the same QR (sessionStorage: per tab, gone with it).

export type WechatQrStatus = 'loading' | PollStatus;

export interface WechatQr {
  readonly session: CachedLoginSession | null;
  readonly status: WechatQrStatus;
  /** A server message for a cover other than the usual wording ('' when none). */
  readonly message: string;
  /** A new QR code, never the cached one. */
  refresh(): void;
}

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

function readSession(): CachedLoginSession | null {
  return readCachedSession(storage()?.getItem(LOGIN_SESSION_STORAGE_KEY) ?? null, Date.now());
}

function forgetSession(): void {
  storage()?.removeItem(LOGIN_SESSION_STORAGE_KEY);
}

export function useWechatQr(onSignedIn: (user: TUserInfo) => void): WechatQr {
  // The modal mounts this view only in the browser, so storage can be read at once.
  const [session, setSession] = useState<CachedLoginSession | null>(readSession);
  const [loadError, setLoadError] = useState('');
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    if (session) return;
    let isCurrent = true;
    void (async () => {
      try {
        const client = await apiClient();
        const answer = await client.call(endpoints.wechatguid, { provider: 'wechat' });
        const fresh = cachedSessionOf(answer, Date.now());
        storage()?.setItem(LOGIN_SESSION_STORAGE_KEY, JSON.stringify(fresh));
        if (isCurrent) setSession(fresh);
      } catch (error) {
        if (isCurrent) setLoadError(refusalOf(error).message);
      }
    })();
    return () => {
      isCurrent = false;
    };
  }, [session, generation]);

  const poller = useLoginPoller(session?.logintag ?? null, {
    onDone: (user) => {
      forgetSession();
      track(loginEvent({ method: 'wechat' }, { ok: true }));
      onSignedIn(user);
    },
    onEnd: (state) => {
      forgetSession();
      const reason = qrLoginFailure(state);
      if (reason !== null) track(loginEvent({ method: 'wechat' }, { ok: false, reason }));
    },
  });

  const refresh = useCallback(() => {
    forgetSession();
    setLoadError('');
    setSession(null);
    setGeneration((value) => value + 1);
  }, []);

  if (!session) return { session, status: loadError ? 'expired' : 'loading', message: loadError, refresh };
  return { session, status: poller.state.status, message: poller.state.message, refresh };
}
