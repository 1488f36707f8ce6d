'use client';

import { useEffect, useRef } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import { useTranslations } from 'next-intl';
import { LogoMark } from '@/components/site/logo';
import { CloseIcon } from '@/components/ui/icons';
import type { LoginView, NavigableView } from '@/lib/auth/login-flow';
import styles from './login.module.css';
import { LoginFlow } from './login-views';

// spec §2 "Login modal": a modal dialog (a bottom sheet at 750 px and below) closed by ×, Esc or a
// click on the backdrop; focus stays inside it and the page behind does not scroll.

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), iframe, [tabindex]:not([tabindex="-1"])';

function ModalFrame({
  view,
  titleId,
  onClose,
  children,
}: {
  readonly view: LoginView;
  readonly titleId: string;
  readonly onClose: () => void;
  readonly children: ReactNode;
}) {
  const t = useTranslations('login');
  const dialog = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previousFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    const onFocusIn = (event: FocusEvent) => {
      if (dialog.current && event.target instanceof Node && !dialog.current.contains(event.target)) dialog.current.focus();
    };
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('keydown', onKey);
    return () => {
      document.body.style.overflow = previousOverflow;
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('keydown', onKey);
      previousFocus?.focus();
    };
  }, [onClose]);

  // A new view replaced the focused element: keep focus in the dialog.
  useEffect(() => {
    const panel = dialog.current;
    if (panel && !panel.contains(document.activeElement)) panel.focus();
  }, [view]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'Tab' || !dialog.current) return;
    const focusable = Array.from(dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === dialog.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <div className={styles.backdrop} onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div
        ref={dialog}
        className={styles.dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-testid="login-modal"
        data-view={view}
        onKeyDown={onKeyDown}
      >
        <button type="button" className={styles.close} data-testid="login-close" aria-label={t('close')} onClick={onClose}>
          <CloseIcon size={20} />
        </button>
        <div className={styles.brand}>
          <LogoMark size={26} />
          <span>{t('brand')}</span>
        </div>
        {children}
      </div>
    </div>
  );
}

export function LoginModal({ initialView, onClose }: { readonly initialView: NavigableView; readonly onClose: () => void }) {
  return (
    <LoginFlow
      variant="modal"
      initialView={initialView}
      onFinished={onClose}
      frame={(view, titleId, content) => (
        <ModalFrame view={view} titleId={titleId} onClose={onClose}>
          {content}
        </ModalFrame>
      )}
    />
  );
}
