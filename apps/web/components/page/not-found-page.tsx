'use client';

import Link from '@/components/ui/link';
import { useEffect, useState } from 'react';
import { useRouter } from 'next/navigation';
import { useLocale, useTranslations } from 'next-intl';
import { PAGE } from '@xcad/protocol';
import { DEFAULT_LOCALE, isLocale, localizePath } from '@/lib/i18n/locales';
import type { NotFoundLink } from '@/lib/not-found-links';
import styles from './not-found-page.module.css';

/**
 * The 404 page of spec §2: '页面未找到!', a 60 s countdown after which the home page replaces it,
 * a back-home link and the other links (`links`, configured on the server).
 */
export function NotFoundPage({ links }: { links: readonly NotFoundLink[] }) {
  const t = useTranslations('notFound');
  const current = useLocale();
  const locale = isLocale(current) ? current : DEFAULT_LOCALE;
  const homeHref = localizePath('/', locale);
  return (
    <section className={styles.page} aria-labelledby="notfound-title">
      <svg className={styles.art} viewBox="0 0 240 120" aria-hidden="true">
        <defs>
          <linearGradient id="nf-grad" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#5b8ff9" />
            <stop offset="1" stopColor="#2468f2" />
          </linearGradient>
        </defs>
        <path d="M10 104h220" stroke="#e5e6eb" strokeWidth="2" strokeDasharray="6 6" />
        <g fill="none" stroke="url(#nf-grad)" strokeWidth="10" strokeLinecap="round" strokeLinejoin="round">
          <path d="M58 88V22L22 70h50" />
          <rect x="96" y="22" width="48" height="66" rx="24" />
          <path d="M214 88V22l-36 48h50" />
        </g>
        <circle cx="120" cy="55" r="6" fill="#2468f2" />
      </svg>
      <h1 id="notfound-title" className={styles.title}>
        {t('title')}
      </h1>
      <p className={styles.message}>{t('message')}</p>
      <Countdown homeHref={homeHref} />
      <Link href={homeHref} className={styles.home} data-testid="notfound-home">
        {t('home')}
      </Link>
      <nav className={styles.links} aria-label={t('linksTitle')}>
        <span className={styles.linksTitle}>{t('linksTitle')}</span>
        <ul>
          {links.map((link) => (
            <li key={link.key}>
              {link.isExternal ? (
                <a href={link.href} target="_blank" rel="noopener noreferrer">
                  {t(link.key)}
                </a>
              ) : (
                <Link href={localizePath(link.href, locale)}>{t(link.key)}</Link>
              )}
            </li>
          ))}
        </ul>
      </nav>
    </section>
  );
}

// spec §2: count down 60 seconds, then replace the page with the home page.
function Countdown({ homeHref }: { homeHref: string }) {
  const t = useTranslations('notFound');
  const router = useRouter();
  const [secondsLeft, setSecondsLeft] = useState<number>(PAGE.notFoundRedirectSeconds);

  useEffect(() => {
    // Seconds left are computed from a deadline, so a throttled background tab cannot drift.
    const deadline = Date.now() + PAGE.notFoundRedirectSeconds * 1000;
    const timer = setInterval(() => {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      setSecondsLeft(left);
      if (left === 0) {
        clearInterval(timer);
        router.replace(homeHref);
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [homeHref, router]);

  return (
    <p className={styles.countdown}>
      {t.rich('countdown', {
        seconds: secondsLeft,
        // The message wraps the number in <count>: that element alone carries the seconds left.
        count: (chunks) => (
          <strong className={styles.seconds} data-testid="notfound-countdown">
            {chunks}
          </strong>
        ),
      })}
    </p>
  );
}
