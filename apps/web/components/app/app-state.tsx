'use client';

import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useRef } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import { useTranslations } from 'next-intl';
import { toastDurationMs } from '@xcad/protocol/constants';
import { Spinner } from '@/components/ui/spinner';
import { activeDialog, appReducer, initialAppState, isLoadingShown } from '@/lib/app-state';
import type { DialogOptions, OpenDialog, ToastType } from '@/lib/app-state';
import styles from './app-state.module.css';

// spec §2 "Other UI": toasts, dialog and loading modal driven by application state.

export interface ToastApi {
  success(text: string): void;
  error(text: string): void;
}

interface DialogApi {
  /** Resolves true on confirm, false on cancel, Esc or a click outside. */
  open(options: DialogOptions): Promise<boolean>;
}

interface LoadingModalApi {
  show(): void;
  hide(): void;
}

interface AppStateApi {
  toast: ToastApi;
  dialog: DialogApi;
  loading: LoadingModalApi;
}

const AppStateContext = createContext<AppStateApi | null>(null);

function useAppState(hook: string): AppStateApi {
  const api = useContext(AppStateContext);
  if (!api) throw new Error(`${hook}() must be used inside <AppStateProvider>`);
  return api;
}

export function useToast(): ToastApi {
  return useAppState('useToast').toast;
}

/** @public spec §2 "Other UI": the dialog every page can open; no page needs one yet. */
export function useDialog(): DialogApi {
  return useAppState('useDialog').dialog;
}

/** @public spec §2 "Other UI": the loading modal; no page needs one yet. */
export function useLoadingModal(): LoadingModalApi {
  return useAppState('useLoadingModal').loading;
}

export function AppStateProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(appReducer, initialAppState);
  const nextId = useRef(1);
  const toastTimers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const dialogAnswers = useRef(new Map<number, (isConfirmed: boolean) => void>());

  const removeToast = useCallback((id: number) => {
    clearTimeout(toastTimers.current.get(id));
    toastTimers.current.delete(id);
    dispatch({ type: 'toast/remove', id });
  }, []);

  const addToast = useCallback(
    (type: ToastType, text: string) => {
      const id = nextId.current++;
      dispatch({ type: 'toast/add', toast: { id, type, text } });
      // spec §2: a toast lasts 1000 ms plus 200 ms per character.
      toastTimers.current.set(
        id,
        setTimeout(() => removeToast(id), toastDurationMs(text)),
      );
    },
    [removeToast],
  );

  const closeDialog = useCallback((id: number, isConfirmed: boolean) => {
    dialogAnswers.current.get(id)?.(isConfirmed);
    dialogAnswers.current.delete(id);
    dispatch({ type: 'dialog/close', id });
  }, []);

  useEffect(() => {
    const timers = toastTimers.current;
    const answers = dialogAnswers.current;
    return () => {
      for (const timer of timers.values()) clearTimeout(timer);
      for (const answer of answers.values()) answer(false);
    };
  }, []);

  const api = useMemo<AppStateApi>(
    () => ({
      toast: { success: (text) => addToast('success', text), error: (text) => addToast('error', text) },
      dialog: {
        open: (options) =>
          new Promise<boolean>((resolve) => {
            const id = nextId.current++;
            dialogAnswers.current.set(id, resolve);
            dispatch({ type: 'dialog/open', dialog: { ...options, id } });
          }),
      },
      loading: { show: () => dispatch({ type: 'loading/show' }), hide: () => dispatch({ type: 'loading/hide' }) },
    }),
    [addToast],
  );

  const dialog = activeDialog(state);
  return (
    <AppStateContext.Provider value={api}>
      {children}
      <div className={styles.toasts} aria-live="polite">
        {state.toasts.map((toast) => (
          <div
            key={toast.id}
            role="status"
            data-testid="toast"
            data-type={toast.type}
            className={`${styles.toast} ${toast.type === 'error' ? styles.toastError : styles.toastSuccess}`}
            onClick={() => removeToast(toast.id)}
          >
            {toast.text}
          </div>
        ))}
      </div>
      {dialog && <Dialog key={dialog.id} dialog={dialog} onClose={(isConfirmed) => closeDialog(dialog.id, isConfirmed)} />}
      {isLoadingShown(state) && <LoadingModal />}
    </AppStateContext.Provider>
  );
}

const FOCUSABLE = 'button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])';

function Dialog({ dialog, onClose }: { dialog: OpenDialog; onClose: (isConfirmed: boolean) => void }) {
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panel.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => previous?.focus();
  }, []);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose(false);
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    // Focus trap: Tab and Shift+Tab cycle inside the dialog.
    const focusable = Array.from(panel.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <div className={styles.backdrop} onMouseDown={(event) => event.target === event.currentTarget && onClose(false)}>
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={`dialog-title-${dialog.id}`}
        aria-describedby={`dialog-body-${dialog.id}`}
        data-testid="dialog"
        className={styles.dialog}
        onKeyDown={onKeyDown}
      >
        <h2 id={`dialog-title-${dialog.id}`} className={styles.dialogTitle}>
          {dialog.title}
        </h2>
        <p id={`dialog-body-${dialog.id}`} className={styles.dialogBody}>
          {dialog.body}
        </p>
        <div className={styles.dialogActions}>
          {dialog.cancelText !== undefined && (
            <button type="button" className={styles.buttonSecondary} data-testid="dialog-cancel" onClick={() => onClose(false)}>
              {dialog.cancelText}
            </button>
          )}
          <button type="button" className={styles.buttonPrimary} data-testid="dialog-confirm" data-autofocus onClick={() => onClose(true)}>
            {dialog.confirmText}
          </button>
        </div>
      </div>
    </div>
  );
}

function LoadingModal() {
  const t = useTranslations('common');
  return (
    <div className={styles.backdrop} data-testid="loading-modal" role="alertdialog" aria-busy="true" aria-label={t('loading')}>
      <div className={styles.loadingBox}>
        <Spinner size={28} tone="light" />
        <span>{t('loading')}</span>
      </div>
    </div>
  );
}
