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
import { FIELD_LAYOUTS } from '@/components/auth/fields/fields';
import { useFormSubmit } from '@/components/auth/fields/use-form-submit';
import type { SmsSenderOptions } from '@/components/auth/fields/use-sms-sender';
import { useSession } from '@/components/auth/session-provider';
import { apiClient } from '@/lib/api/client';
import { forgotPasswordMessage, refusalOf, registerMessage } from '@/lib/auth/login-flow';
import { AgreeField, FormError, NewPasswordFields, PhoneCodeFields, SubmitButton, useSmsForm } from './login-fields';
import type { SmsForm } from './login-fields';
import { useLoginFlow } from './login-flow-context';
import styles from './login.module.css';

// spec §2, §4: registering, recovering a forgotten password, and setting the password of an
// account created by a first SMS login.

interface CodeAndPasswordForm extends SmsForm {
  readonly password: string;
  readonly confirmation: string;
  setPassword(value: string): void;
  setConfirmation(value: string): void;
  /** spec §5: the first failing rule of the phone, SMS code and new password, '' when all pass. */
  check(): string;
}

function useCodeAndPasswordForm(options: SmsSenderOptions, messageOf: (failure: unknown) => string): CodeAndPasswordForm {
  const form = useSmsForm(options, messageOf);
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const { phone, smsCode, sender } = form;
  return {
    ...form,
    password,
    confirmation,
    setPassword: form.edited(setPassword),
    setConfirmation: form.edited(setConfirmation),
    check() {
      if (phone === '') return SMS_FORM_MESSAGES[SMS_FORM_ERROR.emptyPhone];
      if (!isPhone(phone)) return SMS_FORM_MESSAGES[SMS_FORM_ERROR.wrongPhone];
      if (sender.sentTo !== phone) return SMS_FORM_MESSAGES[SMS_FORM_ERROR.smsCodeNeeded];
      return validateSmsCode(smsCode) || validatePassword(password) || validatePasswordConfirmation(password, confirmation);
    },
  };
}

function CodeAndPasswordFields({ form }: { readonly form: CodeAndPasswordForm }) {
  return (
    <>
      <PhoneCodeFields form={form} />
      <NewPasswordFields
        password={form.password}
        confirmation={form.confirmation}
        onPassword={form.setPassword}
        onConfirmation={form.setConfirmation}
      />
    </>
  );
}

function BackToLogin({ label }: { readonly label: string }) {
  const { dispatch } = useLoginFlow();
  return (
    <div className={styles.links}>
      <button
        type="button"
        className={styles.linkButton}
        data-testid="to-login"
        onClick={() => dispatch({ type: 'navigate', view: 'phone' })}
      >
        {label}
      </button>
    </div>
  );
}

export function RegisterView({ titleId }: { readonly titleId: string }) {
  const t = useTranslations('login');
  const { dispatch } = useLoginFlow();
  const form = useCodeAndPasswordForm({ verifytype: 'register', isCaptchaAlwaysShown: true }, (failure) =>
    registerMessage(refusalOf(failure)),
  );
  const [isAgreed, setIsAgreed] = useState(false);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { phone: account, smsCode: smscode, password } = form;
    const problem = form.check() || (isAgreed ? '' : SMS_FORM_MESSAGES[SMS_FORM_ERROR.agreementNotAccepted]);
    void form.submit(problem, async () => {
      const client = await apiClient();
      await client.call(endpoints.safregister, { account, smscode, password });
      dispatch({ type: 'registered', credentials: { account, password } });
    });
  }

  return (
    <section className={styles.view} data-testid="login-view-register">
      <h2 id={titleId} className={styles.title}>
        {t('titles.register')}
      </h2>
      <form className={FIELD_LAYOUTS.boxed} noValidate onSubmit={onSubmit}>
        <CodeAndPasswordFields form={form} />
        <AgreeField isChecked={isAgreed} onChange={form.edited(setIsAgreed)} />
        <FormError message={form.error} />
        <SubmitButton isBusy={form.isBusy} label={t('submit.register')} />
      </form>
      <BackToLogin label={t('links.hasAccount')} />
    </section>
  );
}

export function ForgotView({ titleId }: { readonly titleId: string }) {
  const t = useTranslations('login');
  const { dispatch } = useLoginFlow();
  const form = useCodeAndPasswordForm({ verifytype: 'forgetpwd' }, (failure) => forgotPasswordMessage(refusalOf(failure)));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { phone: account, smsCode: smscode, password } = form;
    void form.submit(form.check(), async () => {
      const client = await apiClient();
      await client.call(endpoints.safforgetpwd, { account, smscode, password });
      dispatch({ type: 'passwordReset', credentials: { account, password } });
    });
  }

  return (
    <section className={styles.view} data-testid="login-view-forgot">
      <h2 id={titleId} className={styles.title}>
        {t('titles.forgot')}
      </h2>
      <form className={FIELD_LAYOUTS.boxed} noValidate onSubmit={onSubmit}>
        <CodeAndPasswordFields form={form} />
        <FormError message={form.error} />
        <SubmitButton isBusy={form.isBusy} label={t('submit.reset')} />
      </form>
      <BackToLogin label={t('links.toLogin')} />
    </section>
  );
}

export function SetPasswordView({ titleId }: { readonly titleId: string }) {
  const t = useTranslations('login');
  const { state, dispatch } = useLoginFlow();
  const { user } = useSession();
  const form = useFormSubmit();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void form.submit(validatePassword(password) || validatePasswordConfirmation(password, confirmation), async () => {
      if (!user) return AUTH_ERRORS.notSignedIn.message;
      const client = await apiClient();
      await client.call(endpoints.setpwd, { account: user.username, usertoken: user.usertoken, password });
      dispatch({ type: 'passwordSet', password });
    });
  }

  return (
    <section className={styles.view} data-testid="login-view-setPassword">
      <h2 id={titleId} className={styles.title}>
        {t('titles.setPassword')}
      </h2>
      <p className={styles.lead}>{t('hints.setPassword', { phone: state.phone })}</p>
      <form className={FIELD_LAYOUTS.boxed} noValidate onSubmit={onSubmit}>
        <NewPasswordFields
          password={password}
          confirmation={confirmation}
          onPassword={form.edited(setPassword)}
          onConfirmation={form.edited(setConfirmation)}
        />
        <FormError message={form.error} />
        <SubmitButton isBusy={form.isBusy} label={t('submit.setPassword')} />
      </form>
    </section>
  );
}
