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

// spec §9: viewport initial and maximum scale 1.
export const viewport: Viewport = {
  width: 'device-width',
  initialScale: VIEWPORT.initialScale,
  maximumScale: VIEWPORT.maximumScale,
  themeColor: '#2468f2',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return children;
}
