import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { VIEWPORT } from '@xcad/protocol';
import { SITE_URL } from '@/lib/site-url';
import './globals.css';

// The document itself (<html lang>) is rendered by app/[locale]/layout.tsx, per locale; this
// layout exists so the root not-found page has a parent, and carries what every page shares.

export const metadata: Metadata = {
  metadataBase: new URL(SITE_URL),
  formatDetection: { telephone: false },
};

// spec §9: viewport initial scale 1. Its maximum scale 1 is NOT applied to web pages: it stops
// pinch zoom, which WCAG 1.4.4 and the accessibility target (Lighthouse >= 95) require;
// VIEWPORT.maximumScale is kept for the desktop app's window (decision 0014).
export const viewport: Viewport = {
  width: 'device-width',
  initialScale: VIEWPORT.initialScale,
  themeColor: '#2060e8',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return children;
}
