'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useSyncExternalStore } from 'react';
import { useSiteLocale } from '@/components/site/use-site-locale';
import Link from '@/components/ui/link';
import { askOperatorAccess } from '@/lib/analytics/operator-access';

// The way to the analytics reports for operators (decision 0022): an entry of the header's user
// drop-down, shown once GET /api/analytics/me says this account is an operator. It is asked the
// first time the drop-down opens, and the answer is kept for the tab's session and that token.

const STORAGE_KEY = 'xcad_operator_access';

function readCached(usertoken: string): boolean | null {
  try {
    const cached = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? 'null') as { token?: unknown; operator?: unknown } | null;
    return cached?.token === usertoken && typeof cached.operator === 'boolean' ? cached.operator : null;
  } catch {
    return null;
  }
}

function writeCached(usertoken: string, operator: boolean): void {
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ token: usertoken, operator }));
  } catch {
    // Asked again on the next page.
  }
}

function ChartIcon() {
  return (
    <svg
      width={16}
      height={16}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M4 20h16M7 16v-5M12 16V6M17 16v-8" />
    </svg>
  );
}

const listeners = new Set<() => void>();
const asking = new Set<string>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Asks the API once per token at a time; the answer is kept and the menus told. */
function ask(usertoken: string): void {
  if (asking.has(usertoken)) return;
  asking.add(usertoken);
  askOperatorAccess()
    .then((operator) => {
      if (operator === null) return;
      writeCached(usertoken, operator);
      listeners.forEach((listener) => listener());
    })
    .catch(() => undefined)
    .finally(() => asking.delete(usertoken));
}

const unknownOnServer = () => null;

export function OperatorMenuLink({
  usertoken,
  isMenuOpen,
  className,
  onNavigate,
}: {
  readonly usertoken: string;
  readonly isMenuOpen: boolean;
  readonly className?: string;
  readonly onNavigate: () => void;
}) {
  const t = useTranslations('analytics');
  const { href } = useSiteLocale();
  const isOperator = useSyncExternalStore(subscribe, () => readCached(usertoken), unknownOnServer);

  useEffect(() => {
    if (isMenuOpen && isOperator === null) ask(usertoken);
  }, [isMenuOpen, isOperator, usertoken]);

  if (isOperator !== true) return null;
  return (
    <li>
      <Link href={href('/operator/analytics')} className={className} onClick={onNavigate} data-testid="user-menu-operator">
        <ChartIcon />
        {t('operatorLink')}
      </Link>
    </li>
  );
}
