'use client';

import { useLocale, useTranslations } from 'next-intl';
import type { ChangeEvent } from 'react';
import { LOCALES, isLocale, localeCookieString } from '@/lib/i18n/locales';
import { switchLocaleTarget } from '@/lib/i18n/switch';
import styles from './locale-switcher.module.css';

// spec §4: on change the cookie is stored (365 days), then the same page opens in the new locale's
// path. A full navigation, so the new locale's messages are loaded. Empty or unchanged: nothing.
export function LocaleSwitcher({ className }: { className?: string }) {
  const locale = useLocale();
  const t = useTranslations('i18n');

  function onChange(event: ChangeEvent<HTMLSelectElement>) {
    const target = switchLocaleTarget(locale, event.target.value, window.location);
    if (!target || !isLocale(event.target.value)) return;
    document.cookie = localeCookieString(event.target.value);
    window.location.assign(target);
  }

  return (
    <label className={`${styles.switcher} ${className ?? ''}`}>
      <svg className={styles.icon} viewBox="0 0 16 16" aria-hidden="true">
        <circle cx="8" cy="8" r="6.5" />
        <path d="M1.5 8h13M8 1.5c2 2.2 2 10.8 0 13M8 1.5c-2 2.2-2 10.8 0 13" />
      </svg>
      <span className="visually-hidden">{t('label')}</span>
      <select data-testid="locale-switcher" className={styles.select} value={locale} onChange={onChange}>
        {LOCALES.map((code) => (
          <option key={code} value={code} data-locale={code}>
            {t(`names.${code}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
