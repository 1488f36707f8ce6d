'use client';

import Image from 'next/image';
import { useTranslations } from 'next-intl';
import { useId } from 'react';
import type { InputHTMLAttributes, ReactNode } from 'react';
import { CAPTCHA_DEFAULTS, maskPassword, maskPhone, maskSmsCode } from '@xcad/protocol';
import styles from './fields.module.css';
import type { SmsCaptcha, SmsSender } from './use-sms-sender';

// The inputs of the sign-in forms (the login modal, /loginPhone) and of /personal-base.html. Each
// masks what is typed or pasted (spec §5), carries the test id the browser tests use, and is
// labelled. No `maxLength` on a masked input: it would cut a pasted '138 0013 8000' before the mask
// drops the spaces (spec §5 strips non-digits first, then cuts to 11).

/** The class a form puts on itself to lay its fields out; fields.module.css describes both. */
export const FIELD_LAYOUTS = { boxed: styles.boxed, labelled: styles.labelled } as const;

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'id' | 'className'>;

export interface FieldProps extends InputProps {
  readonly testId: string;
  /** The input's accessible name; shown beside it in the labelled layout, as the placeholder (unless one is given) in the boxed one. */
  readonly label: string;
  readonly value: string;
  readonly onValue: (value: string) => void;
}

interface TextFieldProps extends FieldProps {
  readonly mask?: (value: string) => string;
  /** The captcha image or the send button, after the input. */
  readonly trailing?: ReactNode;
}

export function TextField({ testId, label, value, onValue, mask, trailing, placeholder, ...rest }: TextFieldProps) {
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
          aria-label={label}
          placeholder={placeholder ?? label}
          value={value}
          onChange={(event) => onValue(mask ? mask(event.target.value) : event.target.value)}
        />
        {trailing}
      </div>
    </div>
  );
}

export function PhoneField(props: FieldProps) {
  return <TextField name="phone" type="tel" inputMode="numeric" autoComplete="tel-national" mask={maskPhone} {...props} />;
}

/** `isNew`: a password being chosen (new-password autofill) rather than the current one. */
export function PasswordField({ isNew, ...props }: FieldProps & { readonly isNew: boolean }) {
  return <TextField type="password" autoComplete={isNew ? 'new-password' : 'current-password'} mask={maskPassword} {...props} />;
}

/** The image code the server asks for before an SMS (spec §5); a click on the image replaces it. */
export function CaptchaField({
  captcha,
  imageTestId,
  ...props
}: Omit<FieldProps, 'value' | 'onValue'> & { readonly captcha: SmsCaptcha; readonly imageTestId: string }) {
  const t = useTranslations('login.fields');
  return (
    <TextField
      name="imgcode"
      autoComplete="off"
      autoCapitalize="off"
      spellCheck={false}
      {...props}
      value={captcha.value}
      onValue={captcha.setValue}
      trailing={
        <button type="button" className={styles.captcha} onClick={captcha.refresh} title={t('captchaRefresh')}>
          {captcha.imageUrl ? (
            <Image
              data-testid={imageTestId}
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

/** The SMS code, with the button that sends it and counts the resend wait down (spec §9: 60 s). */
export function SmsCodeField({
  sender,
  onSend,
  sendTestId,
  ...props
}: FieldProps & { readonly sender: SmsSender; readonly onSend: () => void; readonly sendTestId: string }) {
  const t = useTranslations('login.fields');
  const sendLabel = sender.countdown > 0 ? t('resend', { seconds: sender.countdown }) : sender.isSending ? t('sending') : t('send');
  return (
    <TextField
      name="smscode"
      inputMode="numeric"
      autoComplete="one-time-code"
      mask={maskSmsCode}
      {...props}
      trailing={
        <button
          type="button"
          className={styles.send}
          data-testid={sendTestId}
          disabled={sender.countdown > 0 || sender.isSending}
          aria-live="polite"
          onClick={onSend}
        >
          {sendLabel}
        </button>
      }
    />
  );
}
