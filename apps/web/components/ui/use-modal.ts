'use client';

import { useEffect } from 'react';
import type { KeyboardEvent, RefObject } from 'react';

// What every modal dialog of the site does (the login modal, the cashier): the page behind does
// not scroll, focus stays inside, Esc closes, Tab and Shift+Tab cycle, and focus returns to where
// it was when the dialog closes.

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), iframe, [tabindex]:not([tabindex="-1"])';

/** Locks the page, keeps focus in `dialog` and closes on Esc while mounted. */
export function useModal(
  dialog: RefObject<HTMLElement | null>,
  onClose: () => void,
  { focusOnOpen = true }: { focusOnOpen?: boolean } = {},
): void {
  useEffect(() => {
    const previousFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    if (focusOnOpen) dialog.current?.focus();
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
  }, [dialog, onClose, focusOnOpen]);
}

/** The dialog's onKeyDown: Tab from the last control goes to the first, Shift+Tab the other way. */
export function cycleTab(event: KeyboardEvent<HTMLElement>, dialog: HTMLElement | null): void {
  if (event.key !== 'Tab' || !dialog) return;
  const focusable = Array.from(dialog.querySelectorAll<HTMLElement>(FOCUSABLE));
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === dialog)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}
