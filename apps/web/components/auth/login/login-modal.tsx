'use client';

import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { useTranslations } from 'next-intl';
import { LogoMark } from '@/components/site/logo';
import { CloseIcon } from '@/components/ui/icons';
import { cycleTab, useModal } from '@/components/ui/use-modal';
import type { LoginView, NavigableView } from '@/lib/auth/login-flow';
import styles from './login.module.css';
import { LoginFlow } from './login-views';

// spec §2 "Login modal": a modal dialog (a bottom sheet at 750 px and below) closed by ×, Esc or a
// click on the backdrop; focus stays inside it and the page behind does not scroll.

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

  useModal(dialog, onClose, { focusOnOpen: false });

  // A new view replaced the focused element: keep focus in the dialog.
  useEffect(() => {
    const panel = dialog.current;
    if (panel && !panel.contains(document.activeElement)) panel.focus();
  }, [view]);

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
        data-track-module="login"
        onKeyDown={(event) => cycleTab(event, dialog.current)}
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
