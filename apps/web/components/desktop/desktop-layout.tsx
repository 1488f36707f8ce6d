'use client';

import { useEffect } from 'react';
import { DesktopTitleBar } from './desktop-title-bar';
import { useDesktopBridge } from './use-desktop';

// spec §2 "Layouts": inside the desktop app (a shell exposed `window.desktop`) the page takes the
// desktop layout: the app's own title bar on top, and no site footer (the header and footer
// styles key on html[data-layout='desktop']). In a browser nothing changes and nothing renders.

const DESKTOP_LAYOUT_ATTRIBUTE = 'data-layout';

export function DesktopLayout() {
  const desktop = useDesktopBridge();
  useEffect(() => {
    if (!desktop) return;
    const html = document.documentElement;
    html.setAttribute(DESKTOP_LAYOUT_ATTRIBUTE, 'desktop');
    return () => html.removeAttribute(DESKTOP_LAYOUT_ATTRIBUTE);
  }, [desktop]);
  return desktop ? <DesktopTitleBar desktop={desktop} /> : null;
}
