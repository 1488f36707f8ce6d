'use client';

import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslations } from 'next-intl';
import { SMS_FORM_ERROR, SMS_FORM_MESSAGES, checkSmsLoginForm, endpoints } from '@xcad/protocol';
import { useToast } from '@/components/app/app-state';
import { FIELD_LAYOUTS } from '@/components/auth/fields/fields';
import { AgreeField, FormError, PhoneCodeFields, SubmitButton, useSmsForm } from '@/components/auth/login/login-fields';
import { useSession } from '@/components/auth/session-provider';
import { apiClient } from '@/lib/api/client';
import { refusalOf, smsLoginFailure } from '@/lib/auth/login-flow';
import styles from './cashier.module.css';

// Buying signs you in (issue 4): a visitor verifies a phone with an SMS code in the cashier itself,
// as the login modal's SMS tab does (an unknown phone is registered by loginquick). The cashier
// continues to the order as soon as the session holds the new user.

export function CashierSignin({ isSessionExpired }: { readonly isSessionExpired: boolean }) {
  const t = useTranslations('pay.cashier.signin');
  const toast = useToast();
  const { signIn } = useSession();
  const form = useSmsForm({ verifytype: 'quicklogin' }, (failure) => smsLoginFailure(refusalOf(failure)).message);
  const [isAgreed, setIsAgreed] = useState(false);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { phone, smsCode, sender } = form;
    const formError = checkSmsLoginForm({
      phoneNumber: phone,
      smsCode,
      imageCode: sender.captcha.value,
      isImageShown: sender.captcha.isShown,
      hasRequestedSms: sender.sentTo === phone,
    });
    const problem = SMS_FORM_MESSAGES[formError] || (isAgreed ? '' : SMS_FORM_MESSAGES[SMS_FORM_ERROR.agreementNotAccepted]);
    void form.submit(problem, async () => {
      const client = await apiClient();
      const answer = await client.call(endpoints.loginquick, {
        account: phone,
        smscode: smsCode,
        imgcode: sender.captcha.isShown ? sender.captcha.value : undefined,
        showvip: 1,
      });
      // A first SMS sign-in has no password yet: the purchase goes on, the password can wait.
      if (answer.userinfo.ispwd === 0) toast.success(t('registered'));
      signIn(answer.userinfo);
    });
  }

  return (
    <section className={styles.signin} data-testid="cashier-signin">
      <h3 className={styles.stepTitle}>{t('title')}</h3>
      <p className={isSessionExpired ? styles.signinNotice : styles.signinLead} role={isSessionExpired ? 'alert' : undefined}>
        {isSessionExpired ? t('sessionExpired') : t('lead')}
      </p>
      <form className={FIELD_LAYOUTS.boxed} noValidate onSubmit={onSubmit}>
        <PhoneCodeFields form={form} />
        <AgreeField isChecked={isAgreed} onChange={form.edited(setIsAgreed)} />
        <FormError message={form.error} />
        <SubmitButton isBusy={form.isBusy} label={t('submit')} />
      </form>
    </section>
  );
}
