'use client';

import { useEffect } from 'react';
import { countArticleView } from '@/lib/content/counters';
import { isFirstVisit } from '@/lib/first-visit';

// Decision 0011: an article's views are counted once per visit (per tab session). The request runs
// after the page is shown and its failure is ignored: a view count never blocks reading.
const VIEWED_KEY_PREFIX = 'xcad:viewed:';

export function ViewCounter({ id }: { id: number }) {
  useEffect(() => {
    if (isFirstVisit(`${VIEWED_KEY_PREFIX}${id}`)) countArticleView(id);
  }, [id]);
  return null;
}
