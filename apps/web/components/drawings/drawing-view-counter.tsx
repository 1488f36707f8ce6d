'use client';

import { useEffect } from 'react';
import { countDrawingView } from '@/lib/drawings/drawing-requests';
import { isFirstVisit } from '@/lib/first-visit';

// A drawing's views are counted once per visit (per tab session), after the page is shown; a
// failure is ignored: counting never blocks reading.
const VIEWED_KEY_PREFIX = 'xcad:drawing-viewed:';

export function DrawingViewCounter({ id }: { id: number }) {
  useEffect(() => {
    if (isFirstVisit(`${VIEWED_KEY_PREFIX}${id}`)) countDrawingView(id);
  }, [id]);
  return null;
}
