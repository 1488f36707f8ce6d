'use client';

import Link from 'next/link';
import { useEffect, useSyncExternalStore } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import { takeLoginTag } from '@/lib/login-tag';
import styles from './weixin-login-callback.module.css';

type CallbackState = 'reading' | 'waiting' | 'missing';

// The tag is read from the URL once per visit of the page; the URL then loses it.
let taken: ReturnType<typeof takeLoginTag> | null = null;

function callbackState(): CallbackState {
  taken ??= takeLoginTag(window.location.href);
  return taken.loginTag ? 'waiting' : 'missing';
}

const subscribe = () => () => {};

/**
 * The 183x183 box of /weixin-login-callback (spec §2). It takes the `logintag` out of the URL and
 * waits; completing the login with it belongs to the accounts feature.
 */
export function WeixinLoginCallback() {
  const t = useTranslations('common.weixinCallback');
  const locale = useLocale() as Locale;
  const state = useSyncExternalStore(subscribe, callbackState, (): CallbackState => 'reading');

  useEffect(() => {
    if (taken?.loginTag) window.history.replaceState(window.history.state, '', taken.cleanPath);
    return () => {
      taken = null;
    };
  }, []);

  return (
    <div className={styles.box} data-testid="weixin-callback" data-state={state} aria-live="polite">
      {state === 'missing' ? (
        <>
          <p className={styles.text}>{t('noTag')}</p>
          <Link className={styles.link} href={localizePath('/', locale)}>
            {t('home')}
          </Link>
        </>
      ) : (
        <>
          <span className={styles.spinner} aria-hidden="true" />
          <p className={styles.text}>{t('waiting')}</p>
        </>
      )}
    </div>
  );
}
