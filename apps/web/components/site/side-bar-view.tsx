'use client';

import { LAYOUT, POPUPS } from '@xcad/protocol/constants';
import { cardClass } from '@/components/ui/card';
import Link from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { useEffect, useRef, useState } from 'react';
import { isExternalUrl } from '@/config/site';
import { ArrowUpIcon, ChatIcon, DownloadIcon, PhoneIcon, QqChatIcon } from '@/components/ui/icons';
import { centredPopupFeatures, scrollOffsetAt } from '@/lib/navigation/scroll';
import styles from './side-bar.module.css';
import { useSiteLocale } from './use-site-locale';

export interface SideBarViewProps {
  readonly qqChatUrl: string;
  readonly chatUrl: string;
  readonly downloadUrl: string;
  readonly phones: readonly string[];
}

/** Scroll-driven visibility (spec §2, §9): the bar after 80 px, back-to-top after 200 px. */
function useScrollThresholds() {
  const [state, setState] = useState({ isBarShown: false, isTopShown: false });
  useEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      const y = window.scrollY;
      const isBarShown = y > LAYOUT.sideBarShowAfterPx;
      const isTopShown = y > LAYOUT.backToTopShowAfterPx;
      setState((current) =>
        current.isBarShown === isBarShown && current.isTopShown === isTopShown ? current : { isBarShown, isTopShown },
      );
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(update);
    };
    schedule();
    window.addEventListener('scroll', schedule, { passive: true });
    return () => {
      window.removeEventListener('scroll', schedule);
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, []);
  return state;
}

/** spec §2: back to top animated over 1000 ms; a wheel or touch by the visitor stops it. */
function useScrollToTop() {
  const frame = useRef(0);
  const stop = useRef<() => void>(() => undefined);

  useEffect(() => () => stop.current(), []);

  return () => {
    stop.current();
    const start = window.scrollY;
    const startedAt = performance.now();
    const cancel = () => {
      cancelAnimationFrame(frame.current);
      window.removeEventListener('wheel', cancel);
      window.removeEventListener('touchstart', cancel);
    };
    stop.current = cancel;
    window.addEventListener('wheel', cancel, { passive: true });
    window.addEventListener('touchstart', cancel, { passive: true });
    const step = (now: number) => {
      const offset = scrollOffsetAt(start, now - startedAt, LAYOUT.backToTopAnimationMs);
      window.scrollTo({ top: offset, behavior: 'instant' });
      if (offset > 0) frame.current = requestAnimationFrame(step);
      else cancel();
    };
    frame.current = requestAnimationFrame(step);
  };
}

export function SideBarView({ qqChatUrl, chatUrl, downloadUrl, phones }: SideBarViewProps) {
  const t = useTranslations('sidebar');
  const { href } = useSiteLocale();
  const { isBarShown, isTopShown } = useScrollThresholds();
  const scrollToTop = useScrollToTop();
  const firstPhone = phones[0];

  const openChat = () => {
    const { width, height } = POPUPS.humanChat;
    const features = centredPopupFeatures({
      width,
      height,
      screenX: window.screenX,
      screenY: window.screenY,
      outerWidth: window.outerWidth,
      outerHeight: window.outerHeight,
    });
    window.open(chatUrl, 'xcad-chat', features);
  };

  const isDownloadExternal = isExternalUrl(downloadUrl);

  return (
    <aside className={styles.bar} data-testid="side-bar" data-shown={isBarShown} aria-label={t('label')} data-track-module="sidebar">
      <ul className={cardClass(styles.menu)}>
        <li>
          <a href={qqChatUrl} className={styles.item} target="_blank" rel="noopener noreferrer" title={t('qqTitle')}>
            <QqChatIcon size={22} />
            <span className={styles.label}>{t('qq')}</span>
          </a>
        </li>
        <li>
          <button type="button" className={styles.item} data-testid="side-bar-chat" title={t('chatTitle')} onClick={openChat}>
            <ChatIcon size={22} />
            <span className={styles.label}>{t('chat')}</span>
          </button>
        </li>
        {firstPhone !== undefined && (
          <li className={styles.hotline}>
            <a href={`tel:${firstPhone.replace(/[^\d+]/g, '')}`} className={styles.item}>
              <PhoneIcon size={22} />
              <span className={styles.label}>{t('hotline')}</span>
            </a>
            <div className={styles.flyout}>
              <span className={styles.flyoutTitle}>{t('hotline')}</span>
              {phones.map((phone) => (
                <span key={phone} className={styles.flyoutPhone}>
                  {phone}
                </span>
              ))}
              <span className={styles.flyoutHours}>{t('hotlineHours')}</span>
            </div>
          </li>
        )}
        <li>
          {isDownloadExternal ? (
            <a href={downloadUrl} className={`${styles.item} ${styles.download}`} title={t('downloadTitle')}>
              <DownloadIcon size={22} />
              <span className={styles.label}>{t('download')}</span>
            </a>
          ) : (
            <Link href={href(downloadUrl)} className={`${styles.item} ${styles.download}`} title={t('downloadTitle')}>
              <DownloadIcon size={22} />
              <span className={styles.label}>{t('download')}</span>
            </Link>
          )}
        </li>
      </ul>
      {isTopShown && (
        <button type="button" className={styles.top} data-testid="back-to-top" onClick={scrollToTop} aria-label={t('top')}>
          <ArrowUpIcon size={20} />
          <span className={styles.label}>{t('top')}</span>
        </button>
      )}
    </aside>
  );
}
