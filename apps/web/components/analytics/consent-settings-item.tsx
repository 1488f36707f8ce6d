'use client';

import { useTranslations } from 'next-intl';
import { useSyncExternalStore } from 'react';
import { hasBrowserOptOut, reopenConsent, subscribeConsent } from '@/lib/analytics/browser';
import styles from './consent-bar.module.css';

// The footer's way back to the statistics choice (decision 0022): a visitor who agreed can decline,
// one who declined can agree. Not shown to a browser that opts out by Do-Not-Track or GPC, which
// is never measured whatever it chooses here.

const canChoose = () => !hasBrowserOptOut();
const notOnServer = () => false;

/** An entry of a footer's link list (the list item included, so none is left empty when hidden). */
export function ConsentSettingsItem({ className }: { readonly className?: string }) {
  const t = useTranslations('analytics.consent');
  const isShown = useSyncExternalStore(subscribeConsent, canChoose, notOnServer);
  if (!isShown) return null;
  return (
    <li>
      <button type="button" className={`${styles.settings} ${className ?? ''}`} onClick={reopenConsent} data-testid="consent-settings">
        {t('settings')}
      </button>
    </li>
  );
}
