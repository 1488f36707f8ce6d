'use client';

import Link from '@/components/ui/link';
import { usePathname, useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useEffect, useRef } from 'react';
import { useLoginModal } from '@/components/auth/login-modal-provider';
import { useSession } from '@/components/auth/session-provider';
import { useSiteLocale } from '@/components/site/use-site-locale';
import { UserIcon } from '@/components/ui/icons';
import { mobileLoginHref } from '@/lib/navigation/menu';
import styles from './signin-gate.module.css';

// Same breakpoint as the headers: above it the login modal, at or below it the /loginPhone page.
const DESKTOP_QUERY = '(min-width: 751px)';

interface SigninGateProps {
  /** The account service could not be asked: offer a reload instead of a sign-in. */
  readonly isUnavailable?: boolean;
  /** What the page offers once signed in; the personal centre's words by default. */
  readonly copy?: { readonly title: string; readonly text: string };
  /** Where /loginPhone comes back to; this page's path by default. */
  readonly returnTo?: string;
  /**
   * Render the page again on the server when someone signs in (the personal pages read the session
   * there); a page that loads its data in the browser after sign-in turns this off.
   */
  readonly refreshOnSignIn?: boolean;
}

/**
 * What a page whose content needs the account shows a visitor without a valid session (spec §2;
 * decision 0010: "signed-out visitors are sent to login"). On desktop the login modal opens at once;
 * on a phone the link leads to /loginPhone, which comes back here.
 */
export function SigninGate({ isUnavailable = false, copy, returnTo, refreshOnSignIn = true }: SigninGateProps) {
  const t = useTranslations('account.gate');
  const router = useRouter();
  const pathname = usePathname();
  const { href } = useSiteLocale();
  const loginModal = useLoginModal();
  const { status, user } = useSession();
  const openLogin = useRef(loginModal.open);
  useEffect(() => {
    openLogin.current = loginModal.open;
  }, [loginModal.open]);

  // Once, when the gate appears: closing the modal then leaves the visitor on the gate.
  useEffect(() => {
    if (!isUnavailable && window.matchMedia(DESKTOP_QUERY).matches) openLogin.current();
  }, [isUnavailable]);

  // The token the page was rendered against, once the browser has read it; a different one
  // means someone signed in, so the server renders the page again with the new cookie.
  const renderedToken = useRef<string | null | undefined>(undefined);
  const token = user?.usertoken ?? null;
  useEffect(() => {
    if (!refreshOnSignIn || status === 'unknown') return;
    if (renderedToken.current === undefined) {
      renderedToken.current = token;
      return;
    }
    if (token !== null && token !== renderedToken.current) {
      renderedToken.current = token;
      router.refresh();
    }
  }, [refreshOnSignIn, router, status, token]);

  if (isUnavailable) {
    return (
      <section className={styles.gate} data-testid="signin-gate" data-reason="unavailable">
        <p className={styles.text} role="alert">
          {t('unavailable')}
        </p>
        <button type="button" className={styles.button} onClick={() => router.refresh()}>
          {t('retry')}
        </button>
      </section>
    );
  }

  return (
    <section className={styles.gate} data-testid="signin-gate" aria-labelledby="signin-gate-title">
      <span className={styles.icon} aria-hidden="true">
        <UserIcon size={28} />
      </span>
      <h2 id="signin-gate-title" className={styles.title}>
        {copy?.title ?? t('title')}
      </h2>
      <p className={styles.text}>{copy?.text ?? t('text')}</p>
      <button
        type="button"
        className={`${styles.button} ${styles.desktopOnly}`}
        data-testid="signin-gate-login"
        onClick={() => loginModal.open()}
      >
        {t('login')}
      </button>
      <Link
        className={`${styles.button} ${styles.mobileOnly}`}
        data-testid="signin-gate-mobile"
        href={href(mobileLoginHref(returnTo ?? pathname))}
      >
        {t('login')}
      </Link>
    </section>
  );
}
