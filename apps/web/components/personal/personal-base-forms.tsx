'use client';

import {
  ApiClientError,
  CAPTCHA_DEFAULTS,
  endpoints,
  maskPassword,
  maskPhone,
  maskSmsCode,
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
import Image from 'next/image';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import type { FormEvent, InputHTMLAttributes, ReactNode } from 'react';
import { useToast } from '@/components/app/app-state';
import { useSmsSender } from '@/components/auth/login/use-sms-sender';
import { useSession } from '@/components/auth/session-provider';
import { apiClient } from '@/lib/api/client';
import { canBindMobile, maskMobile } from '@/lib/auth/account-view';
import { isSessionRefused } from '@/lib/auth/session-store';
import styles from './personal-base.module.css';

// /personal-base.html (issue 3): nickname, password (set or change) and binding a mobile to a
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

/** The refusal's own message (the server's spec text), or a network notice. */
function useCallFailure() {
  const t = useTranslations('account.base');
  const router = useRouter();
  return (error: unknown): string => {
    // The session ended meanwhile: the page re-renders as the sign-in gate.
    if (isSessionRefused(error)) router.refresh();
    return error instanceof ApiClientError ? error.message : t('network');
  };
}

// No `maxLength` on masked inputs: it would cut a pasted '138-0013-8000' before the mask strips the
// hyphens (spec §5 strips non-digits first, then cuts to 11).
interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'id'> {
  readonly label: string;
  readonly testId: string;
  readonly value: string;
  readonly onValue: (value: string) => void;
  readonly trailing?: ReactNode;
}

function Field({ label, testId, value, onValue, trailing, ...rest }: FieldProps) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <div className={styles.control}>
        <input
          {...rest}
          id={id}
          className={styles.input}
          data-testid={testId}
          value={value}
          onChange={(event) => onValue(event.target.value)}
        />
        {trailing}
      </div>
    </div>
  );
}

function FormError({ message, testId }: { readonly message: string; readonly testId: string }) {
  return (
    <p className={styles.error} role="alert" data-testid={testId}>
      {message}
    </p>
  );
}

function Card({ title, hint, children }: { readonly title: string; readonly hint?: string; readonly children: ReactNode }) {
  const titleId = useId();
  return (
    <section className={styles.card} aria-labelledby={titleId}>
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
  const failure = useCallFailure();
  const [nickname, setNickname] = useState(initial);
  const [error, setError] = useState('');
  const [isSaving, setIsSaving] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = ZNickname.safeParse(nickname);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? '');
      return;
    }
    setError('');
    setIsSaving(true);
    try {
      const client = await apiClient();
      const answer = await client.call(endpoints.changenick, { nickname: parsed.data });
      session.update(answer.userinfo);
      setNickname(answer.userinfo.nickname);
      toast.success(t('saved'));
      router.refresh();
    } catch (caught) {
      setError(failure(caught));
    } finally {
      setIsSaving(false);
    }
  };

  return (
    <Card title={t('title')} hint={t('hint', { max: NICKNAME_MAX_LENGTH })}>
      <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        <Field
          label={t('label')}
          testId="nickname-input"
          name="nickname"
          autoComplete="nickname"
          placeholder={t('placeholder')}
          value={nickname}
          onValue={setNickname}
        />
        <FormError message={error} testId="nickname-error" />
        <div className={styles.actions}>
          <button type="submit" className={styles.primary} data-testid="nickname-save" disabled={isSaving}>
            {isSaving ? t('saving') : t('save')}
          </button>
        </div>
      </form>
    </Card>
  );
}

function PasswordForm({ hasPasswordInitially }: { readonly hasPasswordInitially: boolean }) {
  const t = useTranslations('account.base.password');
  const session = useSession();
  const toast = useToast();
  const failure = useCallFailure();
  const [hasPassword, setHasPassword] = useState(hasPasswordInitially);
  const [oldPassword, setOldPassword] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState('');
  const [isSaving, setIsSaving] = useState(false);

  // spec §5: the new password's rule, then the confirmation's; the old one must be given.
  const check = (): string => {
    if (hasPassword) {
      const old = ZChangePwdRequest.shape.oldpassword.safeParse(oldPassword);
      if (!old.success) return old.error.issues[0]?.message ?? '';
    }
    return validatePassword(password) || validatePasswordConfirmation(password, confirmation);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = check();
    setError(problem);
    if (problem) return;
    setIsSaving(true);
    try {
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
    } catch (caught) {
      setError(failure(caught));
    } finally {
      setIsSaving(false);
    }
  };

  return (
    <Card title={hasPassword ? t('changeTitle') : t('setTitle')} hint={hasPassword ? t('changeHint') : t('setHint')}>
      <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate data-mode={hasPassword ? 'change' : 'set'}>
        {hasPassword && (
          <Field
            label={t('old')}
            testId="password-old"
            type="password"
            name="current-password"
            autoComplete="current-password"
            placeholder={t('oldPlaceholder')}
            value={oldPassword}
            onValue={(value) => setOldPassword(maskPassword(value))}
          />
        )}
        <Field
          label={t('new')}
          testId="password-new"
          type="password"
          name="new-password"
          autoComplete="new-password"
          placeholder={t('newPlaceholder')}
          value={password}
          onValue={(value) => setPassword(maskPassword(value))}
        />
        <Field
          label={t('confirm')}
          testId="password-confirm"
          type="password"
          name="confirm-password"
          autoComplete="new-password"
          placeholder={t('confirmPlaceholder')}
          value={confirmation}
          onValue={(value) => setConfirmation(maskPassword(value))}
        />
        <FormError message={error} testId="password-error" />
        <div className={styles.actions}>
          <button type="submit" className={styles.primary} data-testid="password-save" disabled={isSaving}>
            {isSaving ? t('saving') : hasPassword ? t('saveChange') : t('saveSet')}
          </button>
        </div>
      </form>
    </Card>
  );
}

function BindMobileForm() {
  const t = useTranslations('account.base.bind');
  const session = useSession();
  const toast = useToast();
  const router = useRouter();
  const failure = useCallFailure();
  const sms = useSmsSender({ verifytype: 'bindmobile' });
  const [phone, setPhone] = useState('');
  const [smsCode, setSmsCode] = useState('');
  const [error, setError] = useState('');
  const [isSaving, setIsSaving] = useState(false);

  const send = async () => {
    setError('');
    const result = await sms.send(phone);
    setError(result.message);
  };

  // spec §5: an empty phone and a wrong one have their own messages; then the SMS code's rules.
  const check = (): string => {
    if (phone === '') return SMS_FORM_MESSAGES[SMS_FORM_ERROR.emptyPhone];
    return validatePhone(phone) || validateSmsCode(smsCode);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = check();
    setError(problem);
    if (problem) return;
    setIsSaving(true);
    try {
      const client = await apiClient();
      const answer = await client.call(endpoints.bindaccount, { mobile: phone, smscode: smsCode });
      session.update(answer.userinfo);
      toast.success(t('bound'));
      router.refresh();
    } catch (caught) {
      setError(failure(caught));
    } finally {
      setIsSaving(false);
    }
  };

  const sendLabel = sms.countdown > 0 ? t('resend', { seconds: sms.countdown }) : sms.isSending ? t('sending') : t('send');
  return (
    <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
      <Field
        label={t('phone')}
        testId="bind-phone"
        type="tel"
        inputMode="numeric"
        name="phone"
        autoComplete="tel-national"
        placeholder={t('phonePlaceholder')}
        value={phone}
        onValue={(value) => setPhone(maskPhone(value))}
      />
      {sms.captcha.isShown && (
        <Field
          label={t('imgcode')}
          testId="bind-imgcode"
          name="imgcode"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          placeholder={t('imgcodePlaceholder')}
          value={sms.captcha.value}
          onValue={sms.captcha.setValue}
          trailing={
            <button type="button" className={styles.captcha} onClick={sms.captcha.refresh} title={t('captchaRefresh')}>
              {sms.captcha.imageUrl ? (
                <Image
                  data-testid="bind-captcha-img"
                  src={sms.captcha.imageUrl}
                  alt={t('captchaAlt')}
                  width={CAPTCHA_DEFAULTS.width}
                  height={CAPTCHA_DEFAULTS.height}
                  unoptimized
                />
              ) : (
                <span className={styles.captchaLoading}>{t('captchaLoading')}</span>
              )}
            </button>
          }
        />
      )}
      <Field
        label={t('smscode')}
        testId="bind-smscode"
        inputMode="numeric"
        name="smscode"
        autoComplete="one-time-code"
        placeholder={t('smscodePlaceholder')}
        value={smsCode}
        onValue={(value) => setSmsCode(maskSmsCode(value))}
        trailing={
          <button
            type="button"
            className={styles.secondary}
            data-testid="bind-sms-send"
            disabled={sms.countdown > 0 || sms.isSending}
            onClick={() => void send()}
          >
            {sendLabel}
          </button>
        }
      />
      <FormError message={error} testId="bind-error" />
      <div className={styles.actions}>
        <button type="submit" className={styles.primary} data-testid="bind-save" disabled={isSaving}>
          {isSaving ? t('saving') : t('save')}
        </button>
      </div>
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
