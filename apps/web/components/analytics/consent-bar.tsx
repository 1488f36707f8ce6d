'use client';

import { useTranslations } from 'next-intl';
import { useSyncExternalStore } from 'react';
import { useSiteLocale } from '@/components/site/use-site-locale';
import Link from '@/components/ui/link';
import { consentChoice, hasBrowserOptOut, setConsent, subscribeConsent } from '@/lib/analytics/browser';
import styles from './consent-bar.module.css';

// The consent notice of the site's statistics (decision 0022): a bar at the bottom until the visitor
// agrees or declines, remembered in this browser. Declining stops the tracker and deletes what it
// had not sent; a browser that sends Do-Not-Track or Global Privacy Control is never asked (it
// is not measured either). The bar is sticky at the end of the page (consent-bar.module.css), so
// the end of the page stays reachable without a spacer.

const isAsking = () => !hasBrowserOptOut() && consentChoice() === null;
const notOnServer = () => false;

export function ConsentBar() {
  const t = useTranslations('analytics.consent');
  const { href } = useSiteLocale();
  const isShown = useSyncExternalStore(subscribeConsent, isAsking, notOnServer);
  if (!isShown) return null;
  return (
    <section className={styles.bar} aria-labelledby="consent-bar-text" data-testid="consent-bar">
      <p id="consent-bar-text" className={styles.text}>
        {t.rich('text', {
          privacy: (chunks) => (
            <Link href={href('/privacy.html')} className={styles.link}>
              {chunks}
            </Link>
          ),
        })}
      </p>
      <div className={styles.actions}>
        <button type="button" className={styles.decline} onClick={() => setConsent('denied')} data-testid="consent-decline">
          {t('decline')}
        </button>
        <button type="button" className={styles.accept} onClick={() => setConsent('granted')} data-testid="consent-accept">
          {t('accept')}
        </button>
      </div>
    </section>
  );
}
