'use client';

import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslations } from 'next-intl';
import {
  AUTH_ERRORS,
  SMS_FORM_ERROR,
  SMS_FORM_MESSAGES,
  endpoints,
  isPhone,
  validatePassword,
  validatePasswordConfirmation,
  validateSmsCode,
} from '@xcad/protocol';
import { useSession } from '@/components/auth/session-provider';
import { apiClient } from '@/lib/api/client';
import { forgotPasswordMessage, refusalOf, registerMessage } from '@/lib/auth/login-flow';
import { AgreeField, CaptchaField, FormError, PasswordField, PhoneField, SmsCodeField, SubmitButton } from './login-fields';
import { useLoginFlow } from './login-flow-context';
import styles from './login.module.css';
import { useSmsSender, type SmsSender } from './use-sms-sender';

// spec §2, §4: registering, recovering a forgotten password, and setting the password of an
// account created by a first SMS login.

/** spec §5: the first failing rule of a phone + SMS code + new password form, '' when all pass. */
function checkCodeAndPassword(input: {
  phone: string;
  smsCode: string;
  password: string;
  confirmation: string;
  sender: SmsSender;
}): string {
  if (input.phone === '') return SMS_FORM_MESSAGES[SMS_FORM_ERROR.emptyPhone];
  if (!isPhone(input.phone)) return SMS_FORM_MESSAGES[SMS_FORM_ERROR.wrongPhone];
  if (input.sender.sentTo !== input.phone) return SMS_FORM_MESSAGES[SMS_FORM_ERROR.smsCodeNeeded];
  return (
    validateSmsCode(input.smsCode) ||
    validatePassword(input.password) ||
    validatePasswordConfirmation(input.password, input.confirmation)
  );
}

function useCodeAndPasswordForm(sender: SmsSender) {
  const [phone, setPhone] = useState('');
  const [smsCode, setSmsCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState('');
  const [isBusy, setIsBusy] = useState(false);
  const edited = (set: (value: string) => void) => (value: string) => {
    set(value);
    setError('');
  };
  return {
    phone,
    smsCode,
    password,
    confirmation,
    error,
    isBusy,
    setError,
    setIsBusy,
    setPhone: edited(setPhone),
    setSmsCode: edited(setSmsCode),
    setPassword: edited(setPassword),
    setConfirmation: edited(setConfirmation),
    edited,
    async send() {
      setError('');
      setError((await sender.send(phone)).message);
    },
    check: () => checkCodeAndPassword({ phone, smsCode, password, confirmation, sender }),
  };
}

function BackToLogin({ label }: { readonly label: string }) {
  const { dispatch } = useLoginFlow();
  return (
    <div className={styles.links}>
      <button type="button" className={styles.linkButton} data-testid="to-login" onClick={() => dispatch({ type: 'navigate', view: 'phone' })}>
        {label}
      </button>
    </div>
  );
}

export function RegisterView({ titleId }: { readonly titleId: string }) {
  const t = useTranslations('login');
  const { dispatch } = useLoginFlow();
  const sender = useSmsSender({ verifytype: 'register', isCaptchaAlwaysShown: true });
  const form = useCodeAndPasswordForm(sender);
  const [isAgreed, setIsAgreed] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (form.isBusy) return;
    const message = form.check() || (isAgreed ? '' : SMS_FORM_MESSAGES[SMS_FORM_ERROR.agreementNotAccepted]);
    if (message) return form.setError(message);
    form.setIsBusy(true);
    form.setError('');
    try {
      const client = await apiClient();
      await client.call(endpoints.safregister, { account: form.phone, smscode: form.smsCode, password: form.password });
      dispatch({ type: 'registered', credentials: { account: form.phone, password: form.password } });
    } catch (failure) {
      form.setError(registerMessage(refusalOf(failure)));
      form.setIsBusy(false);
    }
  }

  return (
    <section className={styles.view} data-testid="login-view-register">
      <h2 id={titleId} className={styles.title}>
        {t('titles.register')}
      </h2>
      <form className={styles.form} noValidate onSubmit={onSubmit}>
        <PhoneField value={form.phone} onValue={form.setPhone} />
        <CaptchaField captcha={{ ...sender.captcha, setValue: form.edited(sender.captcha.setValue) }} />
        <SmsCodeField value={form.smsCode} onValue={form.setSmsCode} sender={sender} onSend={form.send} />
        <PasswordField testId="field-password" label={t('fields.newPassword')} value={form.password} onValue={form.setPassword} isNew />
        <PasswordField testId="field-password2" label={t('fields.password2')} value={form.confirmation} onValue={form.setConfirmation} isNew />
        <AgreeField
          isChecked={isAgreed}
          onChange={(value) => {
            setIsAgreed(value);
            form.setError('');
          }}
        />
        <FormError message={form.error} />
        <SubmitButton isBusy={form.isBusy}>{form.isBusy ? t('submit.busy') : t('submit.register')}</SubmitButton>
      </form>
      <BackToLogin label={t('links.hasAccount')} />
    </section>
  );
}

export function ForgotView({ titleId }: { readonly titleId: string }) {
  const t = useTranslations('login');
  const { dispatch } = useLoginFlow();
  const sender = useSmsSender({ verifytype: 'forgetpwd' });
  const form = useCodeAndPasswordForm(sender);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (form.isBusy) return;
    const message = form.check();
    if (message) return form.setError(message);
    form.setIsBusy(true);
    form.setError('');
    try {
      const client = await apiClient();
      await client.call(endpoints.safforgetpwd, { account: form.phone, smscode: form.smsCode, password: form.password });
      dispatch({ type: 'passwordReset', credentials: { account: form.phone, password: form.password } });
    } catch (failure) {
      form.setError(forgotPasswordMessage(refusalOf(failure)));
      form.setIsBusy(false);
    }
  }

  return (
    <section className={styles.view} data-testid="login-view-forgot">
      <h2 id={titleId} className={styles.title}>
        {t('titles.forgot')}
      </h2>
      <form className={styles.form} noValidate onSubmit={onSubmit}>
        <PhoneField value={form.phone} onValue={form.setPhone} />
        {sender.captcha.isShown && <CaptchaField captcha={{ ...sender.captcha, setValue: form.edited(sender.captcha.setValue) }} />}
        <SmsCodeField value={form.smsCode} onValue={form.setSmsCode} sender={sender} onSend={form.send} />
        <PasswordField testId="field-password" label={t('fields.newPassword')} value={form.password} onValue={form.setPassword} isNew />
        <PasswordField testId="field-password2" label={t('fields.password2')} value={form.confirmation} onValue={form.setConfirmation} isNew />
        <FormError message={form.error} />
        <SubmitButton isBusy={form.isBusy}>{form.isBusy ? t('submit.busy') : t('submit.reset')}</SubmitButton>
      </form>
      <BackToLogin label={t('links.toLogin')} />
    </section>
  );
}

export function SetPasswordView({ titleId }: { readonly titleId: string }) {
  const t = useTranslations('login');
  const { state, dispatch } = useLoginFlow();
  const { user } = useSession();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState('');
  const [isBusy, setIsBusy] = useState(false);
  const edited = (set: (value: string) => void) => (value: string) => {
    set(value);
    setError('');
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isBusy) return;
    const message = validatePassword(password) || validatePasswordConfirmation(password, confirmation);
    if (message) return setError(message);
    if (!user) return setError(AUTH_ERRORS.notSignedIn.message);
    setIsBusy(true);
    setError('');
    try {
      const client = await apiClient();
      await client.call(endpoints.setpwd, { account: user.username, usertoken: user.usertoken, password });
      dispatch({ type: 'passwordSet', password });
    } catch (failure) {
      setError(refusalOf(failure).message);
      setIsBusy(false);
    }
  }

  return (
    <section className={styles.view} data-testid="login-view-setPassword">
      <h2 id={titleId} className={styles.title}>
        {t('titles.setPassword')}
      </h2>
      <p className={styles.lead}>{t('hints.setPassword', { phone: state.phone })}</p>
      <form className={styles.form} noValidate onSubmit={onSubmit}>
        <PasswordField testId="field-password" label={t('fields.newPassword')} value={password} onValue={edited(setPassword)} isNew />
        <PasswordField testId="field-password2" label={t('fields.password2')} value={confirmation} onValue={edited(setConfirmation)} isNew />
        <FormError message={error} />
        <SubmitButton isBusy={isBusy}>{isBusy ? t('submit.busy') : t('submit.setPassword')}</SubmitButton>
      </form>
    </section>
  );
}
