'use client';

import { useEffect } from 'react';

/**
 * Marks the document once React has hydrated it (`<html data-hydrated>`). Until then a click on
 * a button or a blur has no handler yet; the browser tests wait for the mark before acting as a
 * person would, and it tells anyone debugging a slow phone where hydration ended.
 */
export function HydrationMark() {
  useEffect(() => {
    document.documentElement.setAttribute('data-hydrated', '');
  }, []);
  return null;
}
