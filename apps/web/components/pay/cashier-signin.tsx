'use client';

import { useTranslations } from 'next-intl';
import { useToast } from '@/components/app/app-state';
import { FIELD_LAYOUTS } from '@/components/auth/fields/fields';
import { AgreeField, FormError, PhoneCodeFields, SubmitButton, useSmsLogin } from '@/components/auth/login/login-fields';
import { useSession } from '@/components/auth/session-provider';
import styles from './cashier.module.css';

// Buying signs you in (decision 0018): a visitor verifies a phone with an SMS code in the cashier itself,
// as the login modal's SMS tab does (an unknown phone is registered by loginquick). The cashier
// continues to the order as soon as the session holds the new user.

export function CashierSignin({ isSessionExpired }: { readonly isSessionExpired: boolean }) {
  const t = useTranslations('pay.cashier.signin');
  const toast = useToast();
  const { signIn } = useSession();
  const { form, isAgreed, setIsAgreed, onSubmit } = useSmsLogin((userinfo) => {
    // A first SMS sign-in has no password yet: the purchase goes on, the password can wait.
    if (userinfo.ispwd === 0) toast.success(t('registered'));
    signIn(userinfo);
  });

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
