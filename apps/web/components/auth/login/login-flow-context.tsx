'use client';

import { createContext, useCallback, useContext, useMemo } from 'react';
import type { Dispatch, ReactNode } from 'react';
import { useTranslations } from 'next-intl';
import { endpoints, type TUserInfo } from '@xcad/protocol';
import { useToast } from '@/components/app/app-state';
import { useSession } from '@/components/auth/session-provider';
import { track } from '@/lib/analytics/browser';
import { loginEvent, reasonOf } from '@/lib/analytics/events';
import { apiClient } from '@/lib/api/client';
import { passwordLoginMessage, refusalOf } from '@/lib/auth/login-flow';
import type { Credentials, LoginFlowAction, LoginFlowState } from '@/lib/auth/login-flow';
import { useQqLogin, type QqLogin } from './use-qq-login';

// What every view of the login flow shares: the flow state, and the one way a login ends.

export interface LoginFlowApi {
  readonly state: LoginFlowState;
  readonly dispatch: Dispatch<LoginFlowAction>;
  /** Keeps the user signed in, says so, and ends the flow (closes the modal or leaves the page). */
  finish(user: TUserInfo): void;
  /** Account login (showvip 1) that then finishes; resolves with the error to show, '' on success. */
  loginWith(credentials: Credentials): Promise<string>;
  /** The QQ popup; kept here so a popup opened from one view still completes in another. */
  readonly qq: QqLogin;
}

const LoginFlowContext = createContext<LoginFlowApi | null>(null);

export function LoginFlowProvider({
  state,
  dispatch,
  onFinished,
  children,
}: {
  readonly state: LoginFlowState;
  readonly dispatch: Dispatch<LoginFlowAction>;
  readonly onFinished: () => void;
  readonly children: ReactNode;
}) {
  const t = useTranslations('login.toast');
  const toast = useToast();
  const { signIn } = useSession();

  const finish = useCallback(
    (user: TUserInfo) => {
      signIn(user);
      toast.success(t('loggedIn'));
      onFinished();
    },
    [onFinished, signIn, t, toast],
  );

  const loginWith = useCallback(
    async (credentials: Credentials) => {
      const attempt = { method: 'password', account: credentials.account } as const;
      let answer;
      try {
        const client = await apiClient();
        answer = await client.call(endpoints.login, { ...credentials, showvip: 1 });
      } catch (error) {
        const refusal = refusalOf(error);
        track(loginEvent(attempt, { ok: false, reason: reasonOf(refusal) }));
        return passwordLoginMessage(refusal);
      }
      track(loginEvent(attempt, { ok: true }));
      finish(answer.userinfo);
      return '';
    },
    [finish],
  );

  const qq = useQqLogin(finish);
  const api = useMemo<LoginFlowApi>(() => ({ state, dispatch, finish, loginWith, qq }), [state, dispatch, finish, loginWith, qq]);
  return <LoginFlowContext.Provider value={api}>{children}</LoginFlowContext.Provider>;
}

export function useLoginFlow(): LoginFlowApi {
  const api = useContext(LoginFlowContext);
  if (!api) throw new Error('useLoginFlow() must be used inside <LoginFlowProvider>');
  return api;
}
