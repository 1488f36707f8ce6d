'use client';

import { useEffect, useEffectEvent } from 'react';
import { useTranslations } from 'next-intl';
import { useFormSubmit } from '@/components/auth/fields/use-form-submit';
import { timedStepOf } from '@/lib/auth/login-flow';
import type { LoginView } from '@/lib/auth/login-flow';
import { FormError } from './login-fields';
import { useLoginFlow } from './login-flow-context';
import styles from './login.module.css';

// spec §4: the notice and success screens. 'Phone not registered' moves on to set-password after
// 3 s; registered and password-set log in by themselves (1 s / 3 s); a changed password waits for
// '立即登录'. A failed automatic login shows its error and offers the button.

type ResultView = Extract<LoginView, 'notRegistered' | 'registered' | 'setPasswordDone' | 'passwordChanged'>;

/** A success tick or a notice mark on a soft disc of the same tone. */
function ResultBadge({ tone, className }: { readonly tone: 'success' | 'notice'; readonly className: string | undefined }) {
  const isSuccess = tone === 'success';
  return (
    <svg className={className} width={56} height={56} viewBox="0 0 56 56" aria-hidden="true" focusable="false">
      <circle cx="28" cy="28" r="28" fill={isSuccess ? '#e8f7ee' : '#fff4e5'} />
      <circle cx="28" cy="28" r="19" fill={isSuccess ? '#16a34a' : '#f59e0b'} />
      {isSuccess ? (
        <path d="M19.5 28.5l6 6 11-12" fill="none" stroke="#fff" strokeWidth="3.6" strokeLinecap="round" strokeLinejoin="round" />
      ) : (
        <path d="M28 19.5v11M28 36.5v.5" fill="none" stroke="#fff" strokeWidth="3.8" strokeLinecap="round" />
      )}
    </svg>
  );
}

export function ResultViewOf({ view, titleId }: { readonly view: ResultView; readonly titleId: string }) {
  const t = useTranslations('login.results');
  const { state, dispatch, loginWith } = useLoginFlow();
  const form = useFormSubmit();
  const credentials = state.credentials;

  function logIn() {
    if (credentials) void form.submit('', () => loginWith(credentials));
  }
  const onTimer = useEffectEvent(logIn);

  useEffect(() => {
    const step = timedStepOf(view);
    if (!step) return;
    const timer = setTimeout(() => {
      if (step.step === 'noticeElapsed') dispatch({ type: 'noticeElapsed' });
      else onTimer();
    }, step.delayMs);
    return () => clearTimeout(timer);
  }, [view, dispatch]);

  const isNotice = view === 'notRegistered';
  const hasLoginButton = view === 'passwordChanged' || form.error !== '';
  return (
    <section className={`${styles.view} ${styles.result}`} data-testid={`login-view-${view}`}>
      <ResultBadge tone={isNotice ? 'notice' : 'success'} className={styles.resultBadge} />
      <h2 id={titleId} className={styles.resultTitle} role={isNotice ? 'alert' : undefined}>
        {t(`${view}.title`)}
      </h2>
      <p className={styles.resultText}>{form.isBusy ? t('loggingIn') : t(`${view}.text`)}</p>
      {!isNotice && <FormError message={form.error} />}
      {hasLoginButton && (
        <button type="button" className={styles.submit} data-testid="login-now" disabled={form.isBusy} onClick={logIn}>
          {t('loginNow')}
        </button>
      )}
    </section>
  );
}
