'use client';

import { useEffect, useEffectEvent, useState } from 'react';
import { useTranslations } from 'next-intl';
import { timedStepOf } from '@/lib/auth/login-flow';
import type { LoginView } from '@/lib/auth/login-flow';
import { FormError } from './login-fields';
import { useLoginFlow } from './login-flow-context';
import { ResultBadge } from './login-icons';
import styles from './login.module.css';

// spec §4: the notice and success screens. 'Phone not registered' moves on to set-password after
// 3 s; registered and password-set log in by themselves (1 s / 3 s); a changed password waits for
// '立即登录'. A failed automatic login shows its error and offers the button.

type ResultView = Extract<LoginView, 'notRegistered' | 'registered' | 'setPasswordDone' | 'passwordChanged'>;

export function ResultViewOf({ view, titleId }: { readonly view: ResultView; readonly titleId: string }) {
  const t = useTranslations('login.results');
  const { state, dispatch, loginWith } = useLoginFlow();
  const [error, setError] = useState('');
  const [isBusy, setIsBusy] = useState(false);
  const credentials = state.credentials;

  async function logIn() {
    if (!credentials || isBusy) return;
    setIsBusy(true);
    setError('');
    setError(await loginWith(credentials));
    setIsBusy(false);
  }
  const onTimer = useEffectEvent(() => void logIn());

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
  const hasLoginButton = view === 'passwordChanged' || error !== '';
  return (
    <section className={`${styles.view} ${styles.result}`} data-testid={`login-view-${view}`}>
      <ResultBadge tone={isNotice ? 'notice' : 'success'} className={styles.resultBadge} />
      <h2 id={titleId} className={styles.resultTitle} role={isNotice ? 'alert' : undefined}>
        {t(`${view}.title`)}
      </h2>
      <p className={styles.resultText}>{isBusy ? t('loggingIn') : t(`${view}.text`)}</p>
      {!isNotice && <FormError message={error} />}
      {hasLoginButton && (
        <button type="button" className={styles.submit} data-testid="login-now" disabled={isBusy} onClick={() => void logIn()}>
          {t('loginNow')}
        </button>
      )}
    </section>
  );
}
