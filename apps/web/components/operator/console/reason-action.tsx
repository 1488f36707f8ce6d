'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useState, type FormEvent, type ReactNode } from 'react';
import { operatorPost } from '@/lib/operator/client';
import styles from './console.module.css';

// One console change that needs a reason (decision 0042): the reason is asked in the form itself,
// sent with the other fields, written to the audit log by the API; the page is then read again.

export interface ReasonActionProps {
  path: string;
  csrf: string;
  label: string;
  /** Fields sent beside the reason. */
  fields?: Record<string, unknown>;
  danger?: boolean;
  /** Inputs of the form (their values are read by name and sent as numbers when numeric). */
  children?: ReactNode;
  testId?: string;
}

function valuesOf(form: HTMLFormElement): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key, value] of new FormData(form).entries()) {
    if (typeof value !== 'string') continue;
    values[key] = key !== 'reason' && key !== 'phone' && /^\d+$/.test(value) ? Number(value) : value;
  }
  return values;
}

export function ReasonAction({ path, csrf, label, fields = {}, danger = false, children, testId }: ReasonActionProps) {
  const t = useTranslations('console.common');
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setBusy(true);
    setError('');
    setMessage('');
    const answer = await operatorPost(path, csrf, { ...fields, ...valuesOf(form) });
    setBusy(false);
    if (!answer.ok) {
      setError(answer.message || t('failed'));
      return;
    }
    setMessage(t('saved'));
    form.reset();
    router.refresh();
  }

  return (
    <form className={styles.actionRow} onSubmit={(event) => void submit(event)} noValidate data-testid={testId}>
      {children}
      <label className={styles.field}>
        {t('reason')}
        <input className={styles.input} name="reason" placeholder={t('reasonPlaceholder')} maxLength={500} />
      </label>
      <button type="submit" className={danger ? styles.buttonDanger : styles.button} disabled={busy}>
        {busy ? t('saving') : label}
      </button>
      {message !== '' ? (
        <p className={styles.message} role="status">
          {message}
        </p>
      ) : null}
      {error !== '' ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
