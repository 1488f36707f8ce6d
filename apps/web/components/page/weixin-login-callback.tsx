'use client';

import { ApiClientError, endpoints } from '@xcad/protocol';
import Link from '@/components/ui/link';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { CheckIcon, CloseIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { apiClient } from '@/lib/api/client';
import { localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import { takeLoginTag } from '@/lib/login-tag';
import styles from './weixin-login-callback.module.css';

type CallbackState = 'reading' | 'waiting' | 'done' | 'failed' | 'missing';

interface CallbackParams {
  readonly logintag: string | null;
  readonly code: string | null;
  readonly state: string | null;
  /** The page's URL without the three. */
  readonly cleanPath: string;
}

/**
 * spec §2: the callback's parameters, and its URL without them. WeChat's website login ends here
 * inside the QR frame with `code` and `state`; none of the three is to be bookmarked, shared or
 * sent on as a referrer.
 */
function takeCallbackParams(href: string): CallbackParams {
  const { loginTag, cleanPath } = takeLoginTag(href);
  const url = new URL(cleanPath, href);
  const code = url.searchParams.get('code')?.trim() || null;
  const state = url.searchParams.get('state')?.trim() || null;
  url.searchParams.delete('code');
  url.searchParams.delete('state');
  return { logintag: loginTag, code, state, cleanPath: `${url.pathname}${url.search}${url.hash}` };
}

// Read from the URL once per visit: the URL then loses them. A visit is over when the URL
// is no longer the cleaned one (a new callback URL arrives with its parameters again).
let taken: CallbackParams | null = null;

function readParams(): CallbackParams {
  const { pathname, search, hash } = window.location;
  if (taken?.cleanPath !== `${pathname}${search}${hash}`) taken = takeCallbackParams(window.location.href);
  return taken;
}

const subscribe = () => () => {};
const hasAllParams = (params: CallbackParams) => Boolean(params.logintag && params.code && params.state);

type CallbackResult = { readonly state: 'done' } | { readonly state: 'failed'; readonly message: string };

// A WeChat code is good for one exchange: a second call for the same one (React runs effects
// twice in development) shares the first's answer.
let completion: { readonly key: string; readonly result: Promise<CallbackResult> } | null = null;

function completeLogin(logintag: string, code: string, state: string): Promise<CallbackResult> {
  const key = `${logintag}\n${code}\n${state}`;
  if (completion?.key === key) return completion.result;
  const result = (async (): Promise<CallbackResult> => {
    try {
      const client = await apiClient();
      await client.call(endpoints.wechatcallback, { logintag, code, state });
      return { state: 'done' };
    } catch (error) {
      return { state: 'failed', message: error instanceof ApiClientError ? error.message : '' };
    }
  })();
  completion = { key, result };
  return result;
}

/**
 * The 183x183 box of /weixin-login-callback (spec §2): hands WeChat's `code` and `state` with the
 * `logintag` to the server (`wechatcallback`), which completes the QR login the desktop modal is
 * polling for, and says how it went.
 */
export function WeixinLoginCallback() {
  const t = useTranslations('account.weixinCallback');
  const locale = useLocale() as Locale;
  const isComplete = useSyncExternalStore(
    subscribe,
    () => hasAllParams(readParams()),
    () => null,
  );
  const [result, setResult] = useState<CallbackResult | null>(null);

  useEffect(() => {
    const params = readParams();
    if (params.logintag || params.code || params.state) window.history.replaceState(window.history.state, '', params.cleanPath);
    if (!params.logintag || !params.code || !params.state) return;
    let isCurrent = true;
    void completeLogin(params.logintag, params.code, params.state).then((answer) => isCurrent && setResult(answer));
    return () => {
      isCurrent = false;
    };
  }, []);

  const state: CallbackState = isComplete === null ? 'reading' : !isComplete ? 'missing' : (result?.state ?? 'waiting');

  return (
    <div className={styles.box} data-testid="weixin-callback" data-state={state} aria-live="polite">
      {state === 'missing' && (
        <>
          <p className={styles.text}>{t('noTag')}</p>
          <Link className={styles.link} href={localizePath('/', locale)}>
            {t('home')}
          </Link>
        </>
      )}
      {(state === 'reading' || state === 'waiting') && (
        <>
          <Spinner />
          <p className={styles.text}>{t('waiting')}</p>
        </>
      )}
      {state === 'done' && (
        <>
          <span className={`${styles.mark} ${styles.markDone}`} aria-hidden="true">
            <CheckIcon size={22} />
          </span>
          <p className={styles.title}>{t('done')}</p>
          <p className={styles.text}>{t('doneHint')}</p>
        </>
      )}
      {result?.state === 'failed' && (
        <>
          <span className={`${styles.mark} ${styles.markFailed}`} aria-hidden="true">
            <CloseIcon size={20} />
          </span>
          <p className={styles.title}>{t('failed')}</p>
          <p className={styles.text}>{result.message || t('retry')}</p>
        </>
      )}
    </div>
  );
}
