'use client';

import { useEffect } from 'react';
import { cacheCopyBase } from '@/lib/cache-copy';

/**
 * On a search-engine cache copy (spec §2) every link must lead to the site, not to the cache host:
 * a `<base>` points relative URLs at the site, and link clicks become full navigations there
 * (the client router would otherwise try to fetch the next page from the cache host).
 * Renders nothing and does nothing anywhere else.
 */
export function CacheHostGuard({ siteUrl }: { siteUrl: string }) {
  useEffect(() => {
    const baseHref = cacheCopyBase(window.location.href, siteUrl);
    if (!baseHref) return;
    const base = document.createElement('base');
    base.href = baseHref;
    document.head.prepend(base);

    function onClick(event: MouseEvent) {
      const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
      const href = anchor?.getAttribute('href');
      if (!href || href.startsWith('#') || !baseHref) return;
      event.preventDefault();
      event.stopPropagation();
      window.location.assign(new URL(href, baseHref).href);
    }
    document.addEventListener('click', onClick, true);
    return () => {
      document.removeEventListener('click', onClick, true);
      base.remove();
    };
  }, [siteUrl]);
  return null;
}
