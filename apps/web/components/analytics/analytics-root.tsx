'use client';

import { usePathname } from 'next/navigation';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { configureAnalytics, isAnalyticsAllowed, subscribeConsent, track } from '@/lib/analytics/browser';
import { clickEventOf } from '@/lib/analytics/clicks';
import { referrerOf } from '@/lib/analytics/context';
import type { AnalyticsClientConfig } from '@/lib/analytics/site-config';
import { statisticsScriptSrc } from '@/lib/analytics/statistics';

// Decision 0022 in every document (mounted by components/app/app-providers.tsx): starts the tracker,
// reports a view for each page of the App Router (the first with its referrer), reports clicks in
// the regions marked with data-track-module (lib/analytics/clicks.ts), and adds the third-party
// statistics script when one is configured and the visitor has not opted out. Renders nothing.

type BaiduQueue = unknown[];

declare global {
  interface Window {
    /** Baidu Tongji's command queue. */
    _hmt?: BaiduQueue;
  }
}

const noConsent = () => false;

/** Adds the statistics script to the head once, as its vendor's install snippet does. */
function addStatisticsScript(siteId: string): void {
  const src = statisticsScriptSrc(siteId);
  if (document.querySelector(`script[src="${CSS.escape(src)}"]`)) return;
  window._hmt ??= [];
  const script = document.createElement('script');
  script.async = true;
  script.src = src;
  document.head.appendChild(script);
}

export function AnalyticsRoot({ site, statisticsSiteId }: AnalyticsClientConfig) {
  const pathname = usePathname();
  const viewsReported = useRef(0);
  const isAllowed = useSyncExternalStore(subscribeConsent, isAnalyticsAllowed, noConsent);

  useEffect(() => configureAnalytics(site), [site]);

  useEffect(() => {
    // After the commit: the new page's title is in the document by then.
    const timer = window.setTimeout(() => {
      const isLanding = viewsReported.current === 0;
      viewsReported.current += 1;
      const referrer = isLanding ? referrerOf(document.referrer, window.location.origin) : '';
      track({ event: 'view', title: document.title }, referrer ? { referrer } : undefined);
      // The statistics script counts the landing page itself; the App Router's later pages are told to it.
      if (!isLanding) window._hmt?.push(['_trackPageview', `${window.location.pathname}${window.location.search}`]);
    }, 0);
    return () => window.clearTimeout(timer);
  }, [pathname]);

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (!(event.target instanceof Element)) return;
      const click = clickEventOf(event.target, window.location.href);
      if (click) track(click);
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, []);

  useEffect(() => {
    if (statisticsSiteId && isAllowed) addStatisticsScript(statisticsSiteId);
  }, [statisticsSiteId, isAllowed]);

  return null;
}
