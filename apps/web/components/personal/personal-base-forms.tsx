'use client';

import {
  ApiClientError,
  endpoints,
  NICKNAME_MAX_LENGTH,
  SMS_FORM_ERROR,
  SMS_FORM_MESSAGES,
  validatePassword,
  validatePasswordConfirmation,
  validatePhone,
  validateSmsCode,
  ZChangePwdRequest,
  ZNickname,
} from '@xcad/protocol';
import type { TUserInfo } from '@xcad/protocol';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { useToast } from '@/components/app/app-state';
import { CaptchaField, FIELD_LAYOUTS, PasswordField, PhoneField, SmsCodeField, TextField } from '@/components/auth/fields/fields';
import { useFormSubmit } from '@/components/auth/fields/use-form-submit';
import type { FormSubmit } from '@/components/auth/fields/use-form-submit';
import { useSmsSender } from '@/components/auth/fields/use-sms-sender';
import { useSession } from '@/components/auth/session-provider';
import { cardClass } from '@/components/ui/card';
import { apiClient } from '@/lib/api/client';
import { canBindMobile, maskMobile } from '@/lib/auth/account-view';
import { isSessionRefused } from '@/lib/auth/session-refused';
import styles from './personal-base.module.css';

// /personal-base.html (decision 0010): nickname, password (set or change) and binding a mobile to a
// WeChat/QQ account. Calls authenticate with the session cookie the page was rendered with;
// every answer that carries the user updates the session, so the header follows at once.

/** What the page needs of the profile; the tokens stay on the server. */
export interface BaseProfile {
  readonly uid: string;
  readonly nickname: string;
  readonly ispwd: 0 | 1;
  readonly logintype: TUserInfo['logintype'];
  readonly bindmobile: string;
}

/** A form of this page: a refusal shows its own message (the server's spec text), else a network notice. */
function useAccountForm(): FormSubmit {
  const t = useTranslations('account.base');
  const router = useRouter();
  return useFormSubmit((error) => {
    // The session ended meanwhile: the page re-renders as the sign-in gate.
    if (isSessionRefused(error)) router.refresh();
    return error instanceof ApiClientError ? error.message : t('network');
  });
}

/** The form's error line and its save button; test ids `${name}-error` and `${name}-save`. */
function FormFooter({
  name,
  form,
  label,
}: {
  readonly name: 'nickname' | 'password' | 'bind';
  readonly form: FormSubmit;
  readonly label: string;
}) {
  return (
    <>
      <p className={styles.error} role="alert" data-testid={`${name}-error`}>
        {form.error}
      </p>
      <div className={styles.actions}>
        <button type="submit" className={styles.primary} data-testid={`${name}-save`} disabled={form.isBusy}>
          {label}
        </button>
      </div>
    </>
  );
}

function Card({ title, hint, children }: { readonly title: string; readonly hint?: string; readonly children: ReactNode }) {
  const titleId = useId();
  return (
    <section className={cardClass(styles.section)} aria-labelledby={titleId}>
      <header className={styles.cardHeader}>
        <h2 id={titleId} className={styles.cardTitle}>
          {title}
        </h2>
        {hint && <p className={styles.hint}>{hint}</p>}
      </header>
      {children}
    </section>
  );
}

function NicknameForm({ initial }: { readonly initial: string }) {
  const t = useTranslations('account.base.nickname');
  const session = useSession();
  const toast = useToast();
  const router = useRouter();
  const form = useAccountForm();
  const [nickname, setNickname] = useState(initial);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = ZNickname.safeParse(nickname);
    void form.submit(parsed.success ? '' : (parsed.error.issues[0]?.message ?? ''), async () => {
      if (!parsed.success) return;
      const client = await apiClient();
      const answer = await client.call(endpoints.changenick, { nickname: parsed.data });
      session.update(answer.userinfo);
      setNickname(answer.userinfo.nickname);
      toast.success(t('saved'));
      router.refresh();
    });
  }

  return (
    <Card title={t('title')} hint={t('hint', { max: NICKNAME_MAX_LENGTH })}>
      <form className={FIELD_LAYOUTS.labelled} onSubmit={onSubmit} noValidate>
        <TextField
          label={t('label')}
          testId="nickname-input"
          name="nickname"
          autoComplete="nickname"
          placeholder={t('placeholder')}
          value={nickname}
          onValue={setNickname}
        />
        <FormFooter name="nickname" form={form} label={form.isBusy ? t('saving') : t('save')} />
      </form>
    </Card>
  );
}

function PasswordForm({ hasPasswordInitially }: { readonly hasPasswordInitially: boolean }) {
  const t = useTranslations('account.base.password');
  const session = useSession();
  const toast = useToast();
  const form = useAccountForm();
  const [hasPassword, setHasPassword] = useState(hasPasswordInitially);
  const [oldPassword, setOldPassword] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');

  // spec §5: the new password's rule, then the confirmation's; the old one must be given.
  const check = (): string => {
    if (hasPassword) {
      const old = ZChangePwdRequest.shape.oldpassword.safeParse(oldPassword);
      if (!old.success) return old.error.issues[0]?.message ?? '';
    }
    return validatePassword(password) || validatePasswordConfirmation(password, confirmation);
  };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void form.submit(check(), async () => {
      const client = await apiClient();
      if (hasPassword) {
        // Every other session was revoked; this one continues with the new tokens of the answer.
        const answer = await client.call(endpoints.changepwd, { oldpassword: oldPassword, password });
        session.update(answer.userinfo);
        toast.success(t('changed'));
      } else {
        await client.call(endpoints.setpwd, { password });
        if (session.user) session.update({ ...session.user, ispwd: 1 });
        setHasPassword(true);
        toast.success(t('setDone'));
      }
      setOldPassword('');
      setPassword('');
      setConfirmation('');
    });
  }

  return (
    <Card title={hasPassword ? t('changeTitle') : t('setTitle')} hint={hasPassword ? t('changeHint') : t('setHint')}>
      <form className={FIELD_LAYOUTS.labelled} onSubmit={onSubmit} noValidate data-mode={hasPassword ? 'change' : 'set'}>
        {hasPassword && (
          <PasswordField
            label={t('old')}
            testId="password-old"
            name="current-password"
            placeholder={t('oldPlaceholder')}
            value={oldPassword}
            onValue={setOldPassword}
            isNew={false}
          />
        )}
        <PasswordField
          label={t('new')}
          testId="password-new"
          name="new-password"
          placeholder={t('newPlaceholder')}
          value={password}
          onValue={setPassword}
          isNew
        />
        <PasswordField
          label={t('confirm')}
          testId="password-confirm"
          name="confirm-password"
          placeholder={t('confirmPlaceholder')}
          value={confirmation}
          onValue={setConfirmation}
          isNew
        />
        <FormFooter name="password" form={form} label={form.isBusy ? t('saving') : hasPassword ? t('saveChange') : t('saveSet')} />
      </form>
    </Card>
  );
}

function BindMobileForm() {
  const t = useTranslations('account.base.bind');
  const session = useSession();
  const toast = useToast();
  const router = useRouter();
  const form = useAccountForm();
  const sms = useSmsSender({ verifytype: 'bindmobile' });
  const [phone, setPhone] = useState('');
  const [smsCode, setSmsCode] = useState('');

  // spec §5: an empty phone and a wrong one have their own messages; then the SMS code's rules.
  const check = (): string => {
    if (phone === '') return SMS_FORM_MESSAGES[SMS_FORM_ERROR.emptyPhone];
    return validatePhone(phone) || validateSmsCode(smsCode);
  };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void form.submit(check(), async () => {
      const client = await apiClient();
      const answer = await client.call(endpoints.bindaccount, { mobile: phone, smscode: smsCode });
      session.update(answer.userinfo);
      toast.success(t('bound'));
      router.refresh();
    });
  }

  return (
    <form className={FIELD_LAYOUTS.labelled} onSubmit={onSubmit} noValidate>
      <PhoneField label={t('phone')} testId="bind-phone" placeholder={t('phonePlaceholder')} value={phone} onValue={setPhone} />
      {sms.captcha.isShown && (
        <CaptchaField
          label={t('imgcode')}
          testId="bind-imgcode"
          imageTestId="bind-captcha-img"
          placeholder={t('imgcodePlaceholder')}
          captcha={sms.captcha}
        />
      )}
      <SmsCodeField
        label={t('smscode')}
        testId="bind-smscode"
        sendTestId="bind-sms-send"
        placeholder={t('smscodePlaceholder')}
        value={smsCode}
        onValue={setSmsCode}
        sender={sms}
        onSend={() => void form.sendCode(sms, phone)}
      />
      <FormFooter name="bind" form={form} label={form.isBusy ? t('saving') : t('save')} />
    </form>
  );
}

function MobileCard({ profile }: { readonly profile: BaseProfile }) {
  const t = useTranslations('account.base.bind');
  if (canBindMobile(profile)) {
    return (
      <Card title={t('title')} hint={t('hint')}>
        <BindMobileForm />
      </Card>
    );
  }
  return (
    <Card title={t('boundTitle')}>
      <p className={styles.bound} data-testid="bind-bound">
        {profile.bindmobile ? t('boundInfo', { mobile: maskMobile(profile.bindmobile) }) : t('noMobile')}
      </p>
    </Card>
  );
}

export function PersonalBaseForms({ profile }: { readonly profile: BaseProfile }) {
  return (
    <div className={styles.forms} data-testid="personal-base">
      <NicknameForm initial={profile.nickname} />
      <PasswordForm hasPasswordInitially={profile.ispwd === 1} />
      <MobileCard profile={profile} />
    </div>
  );
}
