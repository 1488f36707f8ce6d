'use client';

import { AUTH_ERRORS, NICKNAME_MAX_LENGTH, SUCCESS_CODE } from '@xcad/protocol';
import { useTranslations } from 'next-intl';
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import { LogoMark } from '@/components/site/logo';
import { cardClass } from '@/components/ui/card';
import { CheckIcon } from '@/components/ui/icons';
import { postDevRoute, type DevAnswer } from '@/lib/api/dev-routes';
import styles from './scan-login.module.css';

// /scanlogin/{logintag} (spec §1, §2): the phone side of the development WeChat provider. A desktop
// shows a QR code of this page; opening it here marks the login scanned, confirming completes it.
// The dev routes are plain JSON (no signing) and exist only while WECHAT_PROVIDER=dev.

const OPENID_STORAGE_KEY = 'xcad_dev_wechat_openid';
const SCAN_PATH = '/api/dev/wechat/scan';
const CONFIRM_PATH = '/api/dev/wechat/confirm';
const EXPIRED_CODES: readonly number[] = AUTH_ERRORS.qrExpired.codes;

type ScanState = 'loading' | 'ready' | 'done' | 'expired' | 'error';

interface Outcome {
  readonly state: ScanState;
  /** Why it is an error: the server's own message, or a notice of ours. */
  readonly error?: { readonly kind: 'unsupported' | 'network' } | { readonly kind: 'server'; readonly message: string };
}

function outcomeOf(answer: DevAnswer, success: ScanState): Outcome {
  if (answer === null) return { state: 'error', error: { kind: 'unsupported' } };
  if (answer.code === SUCCESS_CODE) return { state: success };
  if (EXPIRED_CODES.includes(answer.code)) return { state: 'expired' };
  return { state: 'error', error: { kind: 'server', message: answer.message } };
}

const NETWORK_FAILURE: Outcome = { state: 'error', error: { kind: 'network' } };

const OPENID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A WeChat-like openid (28 characters) kept in this browser, so the same phone is the same WeChat user. */
function devOpenid(): string {
  let storage: Storage | null = null;
  try {
    storage = window.localStorage;
    const stored = storage.getItem(OPENID_STORAGE_KEY);
    if (stored) return stored;
  } catch {
    // Without storage the phone is a new WeChat user on each visit.
  }
  const bytes = crypto.getRandomValues(new Uint8Array(27));
  const openid = `o${Array.from(bytes, (byte) => OPENID_ALPHABET[byte % OPENID_ALPHABET.length]).join('')}`;
  try {
    storage?.setItem(OPENID_STORAGE_KEY, openid);
  } catch {
    // Kept for this visit only.
  }
  return openid;
}

export function ScanLogin({ logintag }: { readonly logintag: string }) {
  const t = useTranslations('account.scan');
  const nicknameId = useId();
  const [outcome, setOutcome] = useState<Outcome>({ state: 'loading' });
  const [nickname, setNickname] = useState(() => t('defaultNickname'));
  const [isConfirming, setIsConfirming] = useState(false);
  const { state } = outcome;

  useEffect(() => {
    let isCurrent = true;
    postDevRoute(SCAN_PATH, { logintag }).then(
      (answer) => isCurrent && setOutcome(outcomeOf(answer, 'ready')),
      () => isCurrent && setOutcome(NETWORK_FAILURE),
    );
    return () => {
      isCurrent = false;
    };
  }, [logintag]);

  const confirm = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isConfirming) return;
    setIsConfirming(true);
    try {
      const name = nickname.trim() || t('defaultNickname');
      setOutcome(outcomeOf(await postDevRoute(CONFIRM_PATH, { logintag, openid: devOpenid(), nickname: name }), 'done'));
    } catch {
      setOutcome(NETWORK_FAILURE);
    } finally {
      setIsConfirming(false);
    }
  };

  const errorText = (error: Outcome['error']): string => {
    if (!error) return '';
    if (error.kind === 'server') return error.message || t('failed');
    return t(error.kind);
  };
  const statusText: Record<ScanState, string> = {
    loading: t('loading'),
    ready: t('ready'),
    done: t('done'),
    expired: t('expired'),
    error: errorText(outcome.error),
  };

  return (
    <section className={cardClass(styles.sheet)} data-testid="scan-login" aria-labelledby="scan-login-title">
      <div className={styles.brand}>
        <span className={styles.logo}>
          <LogoMark size={56} />
          {state === 'done' && (
            <span className={styles.doneBadge} aria-hidden="true">
              <CheckIcon size={16} />
            </span>
          )}
        </span>
        <h1 id="scan-login-title" className={styles.title}>
          {t('title')}
        </h1>
        <p className={styles.subtitle}>{t('subtitle')}</p>
      </div>

      <p className={styles.status} data-testid="scan-status" data-state={state} role="status" aria-live="polite">
        {statusText[state]}
      </p>

      {(state === 'ready' || state === 'loading') && (
        <form className={styles.form} onSubmit={(event) => void confirm(event)}>
          <label className={styles.label} htmlFor={nicknameId}>
            {t('nickname')}
          </label>
          <input
            id={nicknameId}
            className={styles.input}
            data-testid="scan-nickname"
            name="nickname"
            autoComplete="nickname"
            maxLength={NICKNAME_MAX_LENGTH}
            value={nickname}
            onChange={(event) => setNickname(event.target.value)}
          />
          <button type="submit" className={styles.confirm} data-testid="scan-confirm" disabled={state !== 'ready' || isConfirming}>
            {isConfirming ? t('confirming') : t('confirm')}
          </button>
          <p className={styles.cancel}>{t('cancelHint')}</p>
        </form>
      )}

      <p className={styles.devNote}>{t('devNote')}</p>
    </section>
  );
}
