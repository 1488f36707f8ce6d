'use client';

import { useState } from 'react';
import type { FormEvent } from 'react';
import { SMS_FORM_ERROR, SMS_FORM_MESSAGES, checkSmsLoginForm, endpoints, type TUserInfo } from '@xcad/protocol';
import { track } from '@/lib/analytics/browser';
import { loginEvent, reasonOf } from '@/lib/analytics/events';
import { apiClient } from '@/lib/api/client';
import { refusalOf, smsLoginFailure } from '@/lib/auth/login-flow';
import { useTranslations } from 'next-intl';
import { useSiteLocale } from '@/components/site/use-site-locale';
import { CaptchaField, PasswordField, PhoneField, SmsCodeField } from '@/components/auth/fields/fields';
import { useFormSubmit } from '@/components/auth/fields/use-form-submit';
import type { FormSubmit } from '@/components/auth/fields/use-form-submit';
import { useSmsSender } from '@/components/auth/fields/use-sms-sender';
import type { SmsSender, SmsSenderOptions } from '@/components/auth/fields/use-sms-sender';
import styles from './login.module.css';

// The login forms' own pieces around the shared fields (components/auth/fields): their test ids
// (field-phone, sms-send, ...) and copy, the agreement box, the error line and the submit button.

/** The state of a form that sends an SMS code: the phone, the code, and the sender behind its button. */
export interface SmsForm extends FormSubmit {
  readonly sender: SmsSender;
  readonly phone: string;
  readonly smsCode: string;
  setPhone(value: string): void;
  setSmsCode(value: string): void;
}

/**
 * The SMS 登录/注册 form (the login modal's SMS tab, the cashier's sign-in): the fields, the
 * agreement, spec §5's checks and loginquick; `onAnswer` receives the signed-in user.
 */
export function useSmsLogin(onAnswer: (userinfo: TUserInfo, phone: string) => void) {
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
      const attempt = { method: 'sms', account: phone } as const;
      let answer;
      try {
        answer = await client.call(endpoints.loginquick, {
          account: phone,
          smscode: smsCode,
          imgcode: sender.captcha.isShown ? sender.captcha.value : undefined,
          showvip: 1,
        });
      } catch (failure) {
        track(loginEvent(attempt, { ok: false, reason: reasonOf(refusalOf(failure)) }));
        throw failure;
      }
      track(loginEvent(attempt, { ok: true }));
      onAnswer(answer.userinfo, phone);
    });
  }

  return { form, isAgreed, setIsAgreed, onSubmit };
}

export function useSmsForm(options: SmsSenderOptions, messageOf?: (failure: unknown) => string): SmsForm {
  const form = useFormSubmit(messageOf);
  const sender = useSmsSender(options);
  const [phone, setPhone] = useState('');
  const [smsCode, setSmsCode] = useState('');
  return { ...form, sender, phone, smsCode, setPhone: form.edited(setPhone), setSmsCode: form.edited(setSmsCode) };
}

/** spec §2, §5: the phone, the image code once the server asks for one, and the SMS code. */
export function PhoneCodeFields({ form }: { readonly form: SmsForm }) {
  const t = useTranslations('login.fields');
  const { sender } = form;
  return (
    <>
      <PhoneField testId="field-phone" label={t('phone')} value={form.phone} onValue={form.setPhone} />
      {sender.captcha.isShown && (
        <CaptchaField
          testId="field-imgcode"
          imageTestId="captcha-img"
          label={t('imageCode')}
          captcha={{ ...sender.captcha, setValue: form.edited(sender.captcha.setValue) }}
        />
      )}
      <SmsCodeField
        testId="field-smscode"
        sendTestId="sms-send"
        label={t('smsCode')}
        value={form.smsCode}
        onValue={form.setSmsCode}
        sender={sender}
        onSend={() => void form.sendCode(sender, form.phone)}
      />
    </>
  );
}

/** A new password and its confirmation (register, forgot password, first SMS login). */
export function NewPasswordFields({
  password,
  confirmation,
  onPassword,
  onConfirmation,
}: {
  readonly password: string;
  readonly confirmation: string;
  readonly onPassword: (value: string) => void;
  readonly onConfirmation: (value: string) => void;
}) {
  const t = useTranslations('login.fields');
  return (
    <>
      <PasswordField testId="field-password" name="password" label={t('newPassword')} value={password} onValue={onPassword} isNew />
      <PasswordField testId="field-password2" name="password2" label={t('password2')} value={confirmation} onValue={onConfirmation} isNew />
    </>
  );
}

export function AgreeField({ isChecked, onChange }: { readonly isChecked: boolean; readonly onChange: (isChecked: boolean) => void }) {
  const t = useTranslations('login.fields');
  const { href } = useSiteLocale();
  return (
    <label className={styles.agree}>
      <input type="checkbox" data-testid="field-agree" checked={isChecked} onChange={(event) => onChange(event.target.checked)} />
      <span>
        {t.rich('agree', {
          terms: (chunks) => (
            <a href={href('/shengming.html')} target="_blank" rel="noopener">
              {chunks}
            </a>
          ),
          privacy: (chunks) => (
            <a href={href('/privacy.html')} target="_blank" rel="noopener">
              {chunks}
            </a>
          ),
        })}
      </span>
    </label>
  );
}

/** The one error line under a form (client checks and server refusals alike). */
export function FormError({ message }: { readonly message: string }) {
  return (
    <div className={styles.errorSlot}>
      {message && (
        <p className={styles.error} role="alert" data-testid="form-error">
          {message}
        </p>
      )}
    </div>
  );
}

/** `label` while idle; while the call runs the form's busy text. */
export function SubmitButton({ isBusy, label }: { readonly isBusy: boolean; readonly label: string }) {
  const t = useTranslations('login.submit');
  return (
    <button type="submit" className={styles.submit} data-testid="submit" disabled={isBusy} aria-busy={isBusy}>
      {isBusy ? t('busy') : label}
    </button>
  );
}
