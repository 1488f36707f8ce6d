'use client';

import dynamic from 'next/dynamic';
import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import type { ReactNode } from 'react';

// spec §2 "Login modal": opened from the header (and the sign-in gates of personal pages). Its code
// loads on first use, so pages that never open it do not carry it.

export type LoginModalView = 'wechat' | 'phone';

export interface LoginModalApi {
  open(view?: LoginModalView): void;
  close(): void;
  readonly isOpen: boolean;
}

const LoginModal = dynamic(() => import('./login/login-modal').then((module) => module.LoginModal), { ssr: false });

const LoginModalContext = createContext<LoginModalApi | null>(null);

export function LoginModalProvider({ children }: { readonly children: ReactNode }) {
  const [openView, setOpenView] = useState<LoginModalView | null>(null);
  const close = useCallback(() => setOpenView(null), []);
  // Opening an open modal keeps its current view and what was typed.
  const open = useCallback((view: LoginModalView = 'wechat') => setOpenView((current) => current ?? view), []);
  const api = useMemo<LoginModalApi>(() => ({ open, close, isOpen: openView !== null }), [open, close, openView]);
  return (
    <LoginModalContext.Provider value={api}>
      {children}
      {openView && <LoginModal initialView={openView} onClose={close} />}
    </LoginModalContext.Provider>
  );
}

export function useLoginModal(): LoginModalApi {
  const api = useContext(LoginModalContext);
  if (!api) throw new Error('useLoginModal() must be used inside <LoginModalProvider>');
  return api;
}
