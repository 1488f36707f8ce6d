'use client';

import { DRAWINGS_API_PREFIX } from '@xcad/protocol';
import { useEffect } from 'react';

// A drawing's views are counted once per visit (per tab session), after the page is shown; a
// failure is ignored: counting never blocks reading.
const VIEWED_KEY_PREFIX = 'xcad:drawing-viewed:';

export function DrawingViewCounter({ id }: { id: number }) {
  useEffect(() => {
    const key = `${VIEWED_KEY_PREFIX}${id}`;
    try {
      if (window.sessionStorage.getItem(key) !== null) return;
      window.sessionStorage.setItem(key, '1');
    } catch {
      // Storage blocked (private mode): counting every view is better than counting none.
    }
    fetch(`${DRAWINGS_API_PREFIX}/${id}/view`, { method: 'POST', keepalive: true }).catch(() => undefined);
  }, [id]);
  return null;
}
