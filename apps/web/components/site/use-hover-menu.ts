'use client';

import { LAYOUT } from '@xcad/protocol/constants';
import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Open state of hover menus: opening is immediate, closing waits spec §2's 500 ms so the
 * pointer can cross the gap between an entry and its panel without the panel vanishing.
 */
export function useHoverMenu<K extends string>() {
  const [openKey, setOpenKey] = useState<K | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const cancelClose = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  }, []);

  const open = useCallback(
    (key: K) => {
      cancelClose();
      setOpenKey(key);
    },
    [cancelClose],
  );

  const closeLater = useCallback(() => {
    cancelClose();
    timer.current = setTimeout(() => {
      timer.current = null;
      setOpenKey(null);
    }, LAYOUT.menuHoverHideDelayMs);
  }, [cancelClose]);

  const closeNow = useCallback(() => {
    cancelClose();
    setOpenKey(null);
  }, [cancelClose]);

  useEffect(() => cancelClose, [cancelClose]);

  return { openKey, open, closeLater, closeNow };
}
