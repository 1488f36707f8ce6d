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

/**
 * A success tick, or a key for the step that guides to setting a password (the SMS sign-in has
 * succeeded: nothing went wrong, so no warning colour), on a soft disc of the same tone.
 */
function ResultBadge({ tone, className }: { readonly tone: 'success' | 'guide'; readonly className: string | undefined }) {
  const isSuccess = tone === 'success';
  return (
    <svg className={className} width={56} height={56} viewBox="0 0 56 56" aria-hidden="true" focusable="false" data-tone={tone}>
      <circle cx="28" cy="28" r="28" fill={isSuccess ? '#e8f7ee' : '#eef3fe'} />
      <circle cx="28" cy="28" r="19" fill={isSuccess ? '#16a34a' : '#2060e8'} />
      {isSuccess ? (
        <path d="M19.5 28.5l6 6 11-12" fill="none" stroke="#fff" strokeWidth="3.6" strokeLinecap="round" strokeLinejoin="round" />
      ) : (
        <g fill="none" stroke="#fff" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round">
          <circle cx="23.5" cy="28" r="5" />
          <path d="M28.5 28h9M34.5 28v4M37.5 28v3" />
        </g>
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

  // spec §4 shows 'not registered' for 3 s after a first SMS sign-in: the visitor is signed in by
  // then, so it is presented as the way on to setting a password (a guide, announced politely),
  // with the time left as a bar and a button that goes there at once.
  const isGuide = view === 'notRegistered';
  const hasLoginButton = view === 'passwordChanged' || form.error !== '';
  return (
    <section className={`${styles.view} ${styles.result}`} data-testid={`login-view-${view}`} role={isGuide ? 'status' : undefined}>
      <ResultBadge tone={isGuide ? 'guide' : 'success'} className={styles.resultBadge} />
      <h2 id={titleId} className={isGuide ? `${styles.resultTitle} ${styles.guideTitle}` : styles.resultTitle}>
        {t(`${view}.title`)}
      </h2>
      <p className={styles.resultText}>{form.isBusy ? t('loggingIn') : t(`${view}.text`)}</p>
      {isGuide && (
        <>
          <div
            className={styles.guideBar}
            role="progressbar"
            aria-label={t('notRegistered.progress')}
            style={{ animationDuration: `${timedStepOf(view)?.delayMs ?? 0}ms` }}
          />
          <button
            type="button"
            className={styles.submit}
            data-testid="login-guide-next"
            onClick={() => dispatch({ type: 'noticeElapsed' })}
          >
            {t('notRegistered.next')}
          </button>
        </>
      )}
      {!isGuide && <FormError message={form.error} />}
      {hasLoginButton && (
        <button type="button" className={styles.submit} data-testid="login-now" disabled={form.isBusy} onClick={logIn}>
          {t('loginNow')}
        </button>
      )}
    </section>
  );
}
