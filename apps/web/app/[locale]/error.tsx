'use client';

import Link from '@/components/ui/link';
import { useEffect } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { reloadOnChunkError } from '@/components/app/chunk-reload-guard';
import { DEFAULT_LOCALE, isLocale, localizePath } from '@/lib/i18n/locales';
import styles from './error.module.css';

// An error while rendering a page: a chunk that failed to load reloads the page (spec §4);
// anything else is logged (spec §8) and the visitor can retry or go home.
export default function PageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useTranslations('errors');
  const current = useLocale();
  const locale = isLocale(current) ? current : DEFAULT_LOCALE;

  useEffect(() => {
    if (!reloadOnChunkError(error)) console.error(error);
  }, [error]);

  return (
    <main className={styles.error} role="alert">
      <h1 className={styles.title}>{t('title')}</h1>
      <p className={styles.message}>{t('message')}</p>
      <div className={styles.actions}>
        <button type="button" className={styles.primary} onClick={reset}>
          {t('retry')}
        </button>
        <Link className={styles.secondary} href={localizePath('/', locale)}>
          {t('home')}
        </Link>
      </div>
    </main>
  );
}
