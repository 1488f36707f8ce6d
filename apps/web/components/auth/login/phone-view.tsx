'use client';

import { useId, useState } from 'react';
import type { FormEvent, KeyboardEvent } from 'react';
import { useTranslations } from 'next-intl';
import {
  PASSWORD_FORM_ERROR,
  PASSWORD_FORM_MESSAGES,
  SMS_FORM_ERROR,
  SMS_FORM_MESSAGES,
  checkPasswordLoginForm,
  checkSmsLoginForm,
  endpoints,
  maskAccount,
} from '@xcad/protocol';
import { useSession } from '@/components/auth/session-provider';
import { apiClient } from '@/lib/api/client';
import { refusalOf, smsLoginFailure } from '@/lib/auth/login-flow';
import type { PhoneTab } from '@/lib/auth/login-flow';
import { AgreeField, CaptchaField, FormError, PasswordField, PhoneField, SmsCodeField, SubmitButton, TextField } from './login-fields';
import { useLoginFlow } from './login-flow-context';
import { QqGlyph, QrGlyph } from './login-icons';
import styles from './login.module.css';
import { useSmsSender } from './use-sms-sender';

// spec §2: the phone view's two tabs — SMS quick login (登录/注册: an unknown phone is registered
// by it) and account-password login — with the ways to register, recover a password, or go back
// to the QR code.

function SmsLoginForm() {
  const t = useTranslations('login');
  const { dispatch, finish } = useLoginFlow();
  const { signIn } = useSession();
  const sender = useSmsSender({ verifytype: 'quicklogin' });
  const [phone, setPhone] = useState('');
  const [smsCode, setSmsCode] = useState('');
  const [isAgreed, setIsAgreed] = useState(false);
  const [error, setError] = useState('');
  const [isBusy, setIsBusy] = useState(false);

  const edited = (set: (value: string) => void) => (value: string) => {
    set(value);
    setError('');
  };

  async function onSend() {
    setError('');
    setError((await sender.send(phone)).message);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isBusy) return;
    const formError = checkSmsLoginForm({
      phoneNumber: phone,
      smsCode,
      imageCode: sender.captcha.value,
      isImageShown: sender.captcha.isShown,
      hasRequestedSms: sender.sentTo === phone,
    });
    if (formError !== SMS_FORM_ERROR.none) return setError(SMS_FORM_MESSAGES[formError]);
    if (!isAgreed) return setError(SMS_FORM_MESSAGES[SMS_FORM_ERROR.agreementNotAccepted]);
    setIsBusy(true);
    setError('');
    try {
      const client = await apiClient();
      const answer = await client.call(endpoints.loginquick, {
        account: phone,
        smscode: smsCode,
        imgcode: sender.captcha.isShown ? sender.captcha.value : undefined,
        showvip: 1,
      });
      // spec §4: a user without a password (a first SMS login) is told so, then sets one.
      if (answer.userinfo.ispwd === 0) {
        signIn(answer.userinfo);
        dispatch({ type: 'firstSmsLogin', phone });
      } else {
        finish(answer.userinfo);
      }
    } catch (failure) {
      setError(smsLoginFailure(refusalOf(failure)).message);
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <form className={styles.form} noValidate onSubmit={onSubmit}>
      <PhoneField value={phone} onValue={edited(setPhone)} />
      {sender.captcha.isShown && <CaptchaField captcha={{ ...sender.captcha, setValue: edited(sender.captcha.setValue) }} />}
      <SmsCodeField value={smsCode} onValue={edited(setSmsCode)} sender={sender} onSend={onSend} />
      <p className={styles.hint}>{t('hints.sms')}</p>
      <AgreeField isChecked={isAgreed} onChange={(value) => {
          setIsAgreed(value);
          setError('');
        }} />
      <FormError message={error} />
      <SubmitButton isBusy={isBusy}>{isBusy ? t('submit.busy') : t('submit.login')}</SubmitButton>
    </form>
  );
}

function PasswordLoginForm() {
  const t = useTranslations('login');
  const { loginWith } = useLoginFlow();
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [isBusy, setIsBusy] = useState(false);

  const edited = (set: (value: string) => void) => (value: string) => {
    set(value);
    setError('');
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isBusy) return;
    const formError = checkPasswordLoginForm({ account, password });
    if (formError !== PASSWORD_FORM_ERROR.none) return setError(PASSWORD_FORM_MESSAGES[formError]);
    setIsBusy(true);
    setError('');
    setError(await loginWith({ account, password }));
    setIsBusy(false);
  }

  return (
    <form className={styles.form} noValidate onSubmit={onSubmit}>
      <TextField
        testId="field-account"
        name="account"
        autoComplete="username"
        autoCapitalize="off"
        spellCheck={false}
        label={t('fields.account')}
        value={account}
        onValue={edited(setAccount)}
        mask={maskAccount}
      />
      <PasswordField testId="field-password" label={t('fields.password')} value={password} onValue={edited(setPassword)} isNew={false} />
      <FormError message={error} />
      <SubmitButton isBusy={isBusy}>{isBusy ? t('submit.busy') : t('submit.login')}</SubmitButton>
    </form>
  );
}

const TABS: readonly PhoneTab[] = ['sms', 'password'];

export function PhoneView({ titleId }: { readonly titleId: string }) {
  const t = useTranslations('login');
  const { state, dispatch, qq } = useLoginFlow();
  const tabsId = useId();
  const panelId = `${tabsId}-panel`;

  function onTabKey(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const next = state.tab === 'sms' ? 'password' : 'sms';
    dispatch({ type: 'selectTab', tab: next });
    document.getElementById(`${tabsId}-${next}`)?.focus();
  }

  return (
    <section className={styles.view} data-testid="login-view-phone">
      <h2 id={titleId} className={styles.srOnly}>
        {t('titles.phone')}
      </h2>
      <div className={styles.tabs} role="tablist" aria-labelledby={titleId}>
        {TABS.map((tab) => (
          <button
            key={tab}
            id={`${tabsId}-${tab}`}
            type="button"
            role="tab"
            className={styles.tab}
            data-testid={`tab-${tab}`}
            aria-selected={state.tab === tab}
            aria-controls={panelId}
            tabIndex={state.tab === tab ? 0 : -1}
            onKeyDown={onTabKey}
            onClick={() => dispatch({ type: 'selectTab', tab })}
          >
            {t(`tabs.${tab}`)}
          </button>
        ))}
      </div>
      <div id={panelId} role="tabpanel" aria-labelledby={`${tabsId}-${state.tab}`}>
        {state.tab === 'sms' ? <SmsLoginForm key="sms" /> : <PasswordLoginForm key="password" />}
      </div>
      <div className={styles.links}>
        <button type="button" className={styles.linkButton} data-testid="to-forgot" onClick={() => dispatch({ type: 'navigate', view: 'forgot' })}>
          {t('links.toForgot')}
        </button>
        <button
          type="button"
          className={styles.linkButton}
          data-testid="to-register"
          onClick={() => dispatch({ type: 'navigate', view: 'register' })}
        >
          {t('links.toRegister')}
        </button>
      </div>
      <div className={styles.others}>
        <p className={styles.othersTitle}>
          <span>{t('others')}</span>
        </p>
        <div className={styles.othersRow}>
          {state.variant === 'modal' && (
            <button
              type="button"
              className={styles.methodButton}
              data-testid="to-wechat"
              onClick={() => dispatch({ type: 'navigate', view: 'wechat' })}
            >
              <span className={`${styles.methodIcon} ${styles.methodWechat}`}>
                <QrGlyph size={20} />
              </span>
              {t('links.toWechat')}
            </button>
          )}
          <button type="button" className={styles.methodButton} data-testid="qq-login" disabled={qq.isBusy} onClick={qq.start}>
            <span className={`${styles.methodIcon} ${styles.methodQq}`}>
              <QqGlyph size={20} />
            </span>
            {t('qq.label')}
          </button>
        </div>
      </div>
    </section>
  );
}
