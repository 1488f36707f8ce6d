'use client';

import { useEffect } from 'react';
import { wpUrl } from '@/components/desktop/wp-url';

// Decision 0011: an article's views are counted once per visit (per tab session). The request runs
// after the page is shown and its failure is ignored: a view count never blocks reading.
const VIEWED_KEY_PREFIX = 'xcad:viewed:';

export function ViewCounter({ id }: { id: number }) {
  useEffect(() => {
    const key = `${VIEWED_KEY_PREFIX}${id}`;
    try {
      if (window.sessionStorage.getItem(key) !== null) return;
      window.sessionStorage.setItem(key, '1');
    } catch {
      // Storage blocked (private mode): counting every view is better than counting none.
    }
    fetch(wpUrl(`/wp-json/wp/v2/update_post_views?id=${id}`), { method: 'POST', keepalive: true }).catch(() => undefined);
  }, [id]);
  return null;
}
