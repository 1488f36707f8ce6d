'use client';

import Image from 'next/image';
import { useTranslations } from 'next-intl';
import type { InputHTMLAttributes, ReactNode } from 'react';
import { CAPTCHA_DEFAULTS, maskPassword, maskPhone, maskSmsCode } from '@xcad/protocol';
import { useSiteLocale } from '@/components/site/use-site-locale';
import styles from './login.module.css';
import type { SmsCaptcha, SmsSender } from './use-sms-sender';

// The inputs of the login forms (spec §5): each masks what is typed (no maxLength: it would cut a
// pasted '138 0013 8000' before the mask drops the spaces), carries the test id the
// browser tests use, and is labelled for screen readers.

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'>;

interface TextFieldProps extends InputProps {
  readonly testId: string;
  readonly label: string;
  readonly value: string;
  readonly onValue: (value: string) => void;
  readonly mask: (value: string) => string;
  readonly trailing?: ReactNode;
}

export function TextField({ testId, label, value, onValue, mask, trailing, className, ...rest }: TextFieldProps) {
  return (
    <div className={`${styles.field} ${className ?? ''}`}>
      <input
        {...rest}
        className={styles.input}
        data-testid={testId}
        aria-label={label}
        placeholder={rest.placeholder ?? label}
        value={value}
        onChange={(event) => onValue(mask(event.target.value))}
      />
      {trailing}
    </div>
  );
}

export function PhoneField({ value, onValue }: { readonly value: string; readonly onValue: (value: string) => void }) {
  const t = useTranslations('login.fields');
  return (
    <TextField
      testId="field-phone"
      name="phone"
      type="tel"
      inputMode="numeric"
      autoComplete="tel-national"
      label={t('phone')}
      value={value}
      onValue={onValue}
      mask={maskPhone}
    />
  );
}

export function CaptchaField({ captcha }: { readonly captcha: SmsCaptcha }) {
  const t = useTranslations('login.fields');
  return (
    <TextField
      testId="field-imgcode"
      name="imgcode"
      autoComplete="off"
      autoCapitalize="off"
      spellCheck={false}
      label={t('imageCode')}
      value={captcha.value}
      onValue={captcha.setValue}
      mask={(text) => text}
      trailing={
        <button type="button" className={styles.captchaButton} onClick={captcha.refresh} title={t('captchaRefresh')}>
          {captcha.imageUrl ? (
            <Image
              data-testid="captcha-img"
              src={captcha.imageUrl}
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
  );
}

export function SmsCodeField({
  value,
  onValue,
  sender,
  onSend,
}: {
  readonly value: string;
  readonly onValue: (value: string) => void;
  readonly sender: SmsSender;
  readonly onSend: () => void;
}) {
  const t = useTranslations('login.fields');
  const label = sender.countdown > 0 ? t('resend', { seconds: sender.countdown }) : sender.isSending ? t('sending') : t('send');
  return (
    <TextField
      testId="field-smscode"
      name="smscode"
      inputMode="numeric"
      autoComplete="one-time-code"
      label={t('smsCode')}
      value={value}
      onValue={onValue}
      mask={maskSmsCode}
      trailing={
        <button
          type="button"
          className={styles.sendButton}
          data-testid="sms-send"
          disabled={sender.countdown > 0 || sender.isSending}
          aria-live="polite"
          onClick={onSend}
        >
          {label}
        </button>
      }
    />
  );
}

export function PasswordField({
  testId,
  label,
  value,
  onValue,
  isNew,
}: {
  readonly testId: 'field-password' | 'field-password2';
  readonly label: string;
  readonly value: string;
  readonly onValue: (value: string) => void;
  /** A password being chosen (new-password autofill) rather than the current one. */
  readonly isNew: boolean;
}) {
  return (
    <TextField
      testId={testId}
      name={testId === 'field-password' ? 'password' : 'password2'}
      type="password"
      autoComplete={isNew ? 'new-password' : 'current-password'}
      label={label}
      value={value}
      onValue={onValue}
      mask={maskPassword}
    />
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

export function SubmitButton({ isBusy, children }: { readonly isBusy: boolean; readonly children: ReactNode }) {
  return (
    <button type="submit" className={styles.submit} data-testid="submit" disabled={isBusy} aria-busy={isBusy}>
      {children}
    </button>
  );
}
