'use client';

import { useId, useReducer } from 'react';
import type { ReactNode } from 'react';
import { initialLoginFlowState, loginFlowReducer } from '@/lib/auth/login-flow';
import type { LoginFlowState, LoginVariant, NavigableView } from '@/lib/auth/login-flow';
import { ForgotView, RegisterView, SetPasswordView } from './account-views';
import { LoginFlowProvider } from './login-flow-context';
import { PhoneView } from './phone-view';
import { ResultViewOf } from './result-views';
import { WechatView } from './wechat-view';

// The views of spec §2 "Login modal", shared by the modal and the /loginPhone page.

function CurrentView({ state, titleId }: { readonly state: LoginFlowState; readonly titleId: string }) {
  switch (state.view) {
    case 'wechat':
      return <WechatView titleId={titleId} />;
    case 'phone':
      return <PhoneView titleId={titleId} />;
    case 'register':
      return <RegisterView titleId={titleId} />;
    case 'forgot':
      return <ForgotView titleId={titleId} />;
    case 'setPassword':
      return <SetPasswordView titleId={titleId} />;
    default:
      // key: each result view starts its own timer.
      return <ResultViewOf key={state.view} view={state.view} titleId={titleId} />;
  }
}

export interface LoginFlowProps {
  readonly variant: LoginVariant;
  readonly initialView?: NavigableView;
  /** After a login: close the modal, or leave the page. */
  readonly onFinished: () => void;
  /** Wraps the current view; told the view's name and the id of its title. */
  readonly frame: (view: LoginFlowState['view'], titleId: string, content: ReactNode) => ReactNode;
}

export function LoginFlow({ variant, initialView, onFinished, frame }: LoginFlowProps) {
  const [state, dispatch] = useReducer(loginFlowReducer, undefined, () => initialLoginFlowState(variant, initialView));
  const titleId = useId();
  return (
    <LoginFlowProvider state={state} dispatch={dispatch} onFinished={onFinished}>
      {frame(state.view, titleId, <CurrentView state={state} titleId={titleId} />)}
    </LoginFlowProvider>
  );
}
