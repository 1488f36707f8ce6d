'use client';

import { useId, useState } from 'react';
import type { FormEvent, KeyboardEvent } from 'react';
import { useTranslations } from 'next-intl';
import { PASSWORD_FORM_MESSAGES, checkPasswordLoginForm, maskAccount } from '@xcad/protocol';
import { FIELD_LAYOUTS, PasswordField, TextField } from '@/components/auth/fields/fields';
import { useFormSubmit } from '@/components/auth/fields/use-form-submit';
import { useSession } from '@/components/auth/session-provider';
import type { PhoneTab } from '@/lib/auth/login-flow';
import { AgreeField, FormError, PhoneCodeFields, SubmitButton, useSmsLogin } from './login-fields';
import { useLoginFlow } from './login-flow-context';
import styles from './login.module.css';
import { OtherMethods } from './other-methods';

// spec §2: the phone view's two tabs — SMS quick login (登录/注册: an unknown phone is registered
// by it) and account-password login — with the ways to register, recover a password, or go back
// to the QR code.

function SmsLoginForm() {
  const t = useTranslations('login');
  const { dispatch, finish } = useLoginFlow();
  const { signIn } = useSession();
  const { form, isAgreed, setIsAgreed, onSubmit } = useSmsLogin((userinfo, phone) => {
    // spec §4: a user without a password (a first SMS login) is told so, then sets one.
    if (userinfo.ispwd === 0) {
      signIn(userinfo);
      dispatch({ type: 'firstSmsLogin', phone });
    } else {
      finish(userinfo);
    }
  });

  return (
    <form className={FIELD_LAYOUTS.boxed} noValidate onSubmit={onSubmit}>
      <PhoneCodeFields form={form} />
      <p className={styles.hint}>{t('hints.sms')}</p>
      <AgreeField isChecked={isAgreed} onChange={form.edited(setIsAgreed)} />
      <FormError message={form.error} />
      <SubmitButton isBusy={form.isBusy} label={t('submit.login')} />
    </form>
  );
}

function PasswordLoginForm() {
  const t = useTranslations('login');
  const { loginWith } = useLoginFlow();
  const form = useFormSubmit();
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = PASSWORD_FORM_MESSAGES[checkPasswordLoginForm({ account, password })];
    void form.submit(problem, () => loginWith({ account, password }));
  }

  return (
    <form className={FIELD_LAYOUTS.boxed} noValidate onSubmit={onSubmit}>
      <TextField
        testId="field-account"
        name="account"
        autoComplete="username"
        autoCapitalize="off"
        spellCheck={false}
        label={t('fields.account')}
        value={account}
        onValue={form.edited(setAccount)}
        mask={maskAccount}
      />
      <PasswordField
        testId="field-password"
        name="password"
        label={t('fields.password')}
        value={password}
        onValue={form.edited(setPassword)}
        isNew={false}
      />
      <FormError message={form.error} />
      <SubmitButton isBusy={form.isBusy} label={t('submit.login')} />
    </form>
  );
}

const TABS: readonly PhoneTab[] = ['sms', 'password'];

export function PhoneView({ titleId }: { readonly titleId: string }) {
  const t = useTranslations('login');
  const { state, dispatch } = useLoginFlow();
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
      <h2 id={titleId} className="visually-hidden">
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
            data-track-name={`tab-${tab}`}
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
        <button
          type="button"
          className={styles.linkButton}
          data-testid="to-forgot"
          onClick={() => dispatch({ type: 'navigate', view: 'forgot' })}
        >
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
      <OtherMethods switchTo={state.variant === 'modal' ? 'wechat' : null} />
    </section>
  );
}
