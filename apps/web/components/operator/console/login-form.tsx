'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useState, type FormEvent } from 'react';
import { operatorPost } from '@/lib/operator/client';
import styles from './console.module.css';

// The operator's sign-in (decision 0042): phone, then the SMS code sent to it, every time. The API
// sends a code only to an operator's phone but answers every phone alike.

const PHONE = /^(?:\d{1,3}-)?1[3-9]\d{9}$/;
const CODE = /^\d{4}$/;
const RESEND_SECONDS = 60;

export function LoginForm({ next, expired }: { next: string; expired: boolean }) {
  const t = useTranslations('console.login');
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [wait, setWait] = useState(0);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState(expired ? t('expired') : '');
  const [error, setError] = useState('');

  useEffect(() => {
    if (wait <= 0) return;
    const timer = window.setTimeout(() => setWait(wait - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [wait]);

  async function send() {
    setError('');
    if (!PHONE.test(phone.trim())) {
      setError(t('phoneInvalid'));
      return;
    }
    setBusy(true);
    const answer = await operatorPost('/api/operator/login/sms', '', { phone: phone.trim() });
    setBusy(false);
    if (!answer.ok) {
      setError(answer.message || t('failed'));
      return;
    }
    setWait(RESEND_SECONDS);
    setNote(t('sent'));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError('');
    if (!PHONE.test(phone.trim())) return setError(t('phoneInvalid'));
    if (!CODE.test(code.trim())) return setError(t('codeInvalid'));
    setBusy(true);
    const answer = await operatorPost('/api/operator/login', '', { phone: phone.trim(), code: code.trim() });
    if (!answer.ok) {
      setBusy(false);
      setError(answer.message || t('failed'));
      return;
    }
    window.location.assign(next);
  }

  return (
    <form className={styles.loginCard} onSubmit={(event) => void submit(event)} noValidate data-testid="operator-login">
      <h1 className={styles.pageTitle}>{t('title')}</h1>
      <p className={styles.muted}>{t('intro')}</p>
      <label className={styles.field}>
        {t('phone')}
        <input
          className={styles.input}
          name="phone"
          inputMode="numeric"
          autoComplete="tel"
          placeholder={t('phonePlaceholder')}
          value={phone}
          onChange={(event) => setPhone(event.target.value)}
        />
      </label>
      <label className={styles.field}>
        {t('code')}
        <span className={styles.loginRow}>
          <input
            className={styles.input}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={4}
            placeholder={t('codePlaceholder')}
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
          <button type="button" className={styles.buttonGhost} disabled={busy || wait > 0} onClick={() => void send()}>
            {wait > 0 ? t('resend', { seconds: wait }) : t('send')}
          </button>
        </span>
      </label>
      <button type="submit" className={styles.button} disabled={busy}>
        {busy ? t('submitting') : t('submit')}
      </button>
      {note !== '' && error === '' ? <p className={styles.message}>{note}</p> : null}
      {error !== '' ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
