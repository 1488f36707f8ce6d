'use client';

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import { POPUPS, endpoints, type TUserInfo } from '@xcad/protocol';
import { useToast } from '@/components/app/app-state';
import { track } from '@/lib/analytics/browser';
import { loginEvent, qrLoginFailure, reasonOf } from '@/lib/analytics/events';
import { apiClient } from '@/lib/api/client';
import { centredPopupFeatures, refusalOf } from '@/lib/auth/login-flow';
import { useLoginPoller } from './use-login-poller';

// spec §1: QQ login in a 720x650 popup. It completes through a logintag like the WeChat QR: the
// page polls wechatstate, and the popup's last page posts {type:'xcad-login', logintag} to say so.

const POPUP_NAME = 'xcad-qq-login';
const POPUP_WATCH_MS = 500;

export interface QqLogin {
  start(): void;
  readonly isBusy: boolean;
}

interface LoginMessage {
  readonly type: 'xcad-login';
  readonly logintag: string;
}

function isLoginMessage(data: unknown): data is LoginMessage {
  if (typeof data !== 'object' || data === null) return false;
  const { type, logintag } = data as Record<string, unknown>;
  return type === 'xcad-login' && typeof logintag === 'string';
}

export function useQqLogin(onSignedIn: (user: TUserInfo) => void): QqLogin {
  const t = useTranslations('login.qq');
  const toast = useToast();
  const [logintag, setLogintag] = useState<string | null>(null);
  const [isStarting, setIsStarting] = useState(false);
  const popup = useRef<Window | null>(null);

  const poller = useLoginPoller(logintag, {
    onDone: (user) => {
      popup.current?.close();
      setLogintag(null);
      track(loginEvent({ method: 'qq' }, { ok: true }));
      onSignedIn(user);
    },
    onEnd: (state) => {
      setLogintag(null);
      const reason = qrLoginFailure(state);
      if (reason !== null) track(loginEvent({ method: 'qq' }, { ok: false, reason }));
      // Still pending means the popup was closed without signing in: nothing to report.
      if (state.status === 'illegal' || state.status === 'expired') toast.error(state.message || t('failed'));
    },
  });
  const { pollNow } = poller;

  useEffect(() => {
    if (!logintag) return;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || !isLoginMessage(event.data)) return;
      if (event.data.logintag === logintag) pollNow();
    };
    // A popup closed by the person (or by itself after the login) gets one last look.
    const watch = setInterval(() => {
      if (popup.current && popup.current.closed) {
        clearInterval(watch);
        pollNow({ isLast: true });
      }
    }, POPUP_WATCH_MS);
    window.addEventListener('message', onMessage);
    return () => {
      clearInterval(watch);
      window.removeEventListener('message', onMessage);
    };
  }, [logintag, pollNow]);

  useEffect(() => () => popup.current?.close(), []);

  const start = useCallback(() => {
    // Opened in the click itself: a window opened after an await counts as unrequested and is blocked.
    const features = centredPopupFeatures(POPUPS.qqLogin, {
      left: window.screenX,
      top: window.screenY,
      width: window.outerWidth,
      height: window.outerHeight,
    });
    const opened = window.open('', POPUP_NAME, features);
    if (!opened) {
      track(loginEvent({ method: 'qq' }, { ok: false, reason: 'popup blocked' }));
      toast.error(t('blocked'));
      return;
    }
    popup.current = opened;
    setLogintag(null);
    setIsStarting(true);
    void (async () => {
      try {
        const client = await apiClient();
        const answer = await client.call(endpoints.wechatguid, { provider: 'qq' });
        if (opened.closed) return;
        opened.location.href = answer.qrurl;
        setLogintag(answer.logintag);
      } catch (error) {
        opened.close();
        const refusal = refusalOf(error);
        track(loginEvent({ method: 'qq' }, { ok: false, reason: reasonOf(refusal) }));
        toast.error(refusal.message);
      } finally {
        setIsStarting(false);
      }
    })();
  }, [t, toast]);

  return useMemo(() => ({ start, isBusy: isStarting }), [start, isStarting]);
}
