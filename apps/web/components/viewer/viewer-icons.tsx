// The viewer's toolbar glyphs: 20 px line icons drawn in currentColor.

import type { ReactNode } from 'react';

function Glyph({ children, size = 20 }: { readonly children: ReactNode; readonly size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      {children}
    </svg>
  );
}

export type IconName =
  | 'open'
  | 'more'
  | 'extents'
  | 'zoomIn'
  | 'zoomOut'
  | 'window'
  | 'measure'
  | 'layers'
  | 'background'
  | 'lineweights'
  | 'fullscreen'
  | 'exitFullscreen'
  | 'export'
  | 'close'
  | 'upload';

const PATHS: Readonly<Record<IconName, ReactNode>> = {
  open: <path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />,
  extents: (
    <>
      <path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" />
      <rect x="8" y="8" width="8" height="8" rx="1" />
    </>
  ),
  zoomIn: (
    <>
      <circle cx="10.5" cy="10.5" r="6.5" />
      <path d="M15.5 15.5 21 21M10.5 7.5v6M7.5 10.5h6" />
    </>
  ),
  zoomOut: (
    <>
      <circle cx="10.5" cy="10.5" r="6.5" />
      <path d="M15.5 15.5 21 21M7.5 10.5h6" />
    </>
  ),
  window: (
    <>
      <rect x="3" y="3" width="13" height="13" rx="1" strokeDasharray="3 2.5" />
      <path d="m14 14 7 7M16.5 21H21v-4.5" />
    </>
  ),
  measure: (
    <>
      <path d="M3 17 17 3l4 4L7 21z" />
      <path d="m7 13 2 2M10 10l2 2M13 7l2 2" />
    </>
  ),
  layers: (
    <>
      <path d="m12 3 9 5-9 5-9-5z" />
      <path d="m3 12 9 5 9-5M3 16l9 5 9-5" />
    </>
  ),
  background: (
    <>
      <circle cx="12" cy="12" r="8.5" />
      <path d="M12 3.5v17a8.5 8.5 0 0 0 0-17z" fill="currentColor" />
    </>
  ),
  lineweights: <path d="M4 6h16M4 11.5h16M4 17.5h16" />,
  fullscreen: <path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" />,
  exitFullscreen: <path d="M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5" />,
  export: (
    <>
      <path d="M6 9V3h12v6" />
      <rect x="3" y="9" width="18" height="8" rx="2" />
      <path d="M7 14h10v7H7z" />
    </>
  ),
  close: <path d="M6 6l12 12M18 6 6 18" />,
  more: (
    <>
      <circle cx="5" cy="12" r="1.2" fill="currentColor" />
      <circle cx="12" cy="12" r="1.2" fill="currentColor" />
      <circle cx="19" cy="12" r="1.2" fill="currentColor" />
    </>
  ),
  upload: (
    <>
      <path d="M7 17H6a4 4 0 0 1-.6-7.95A6 6 0 0 1 16.8 7.5a4.75 4.75 0 0 1 1.45 9.3" />
      <path d="M12 20v-9M8.5 14.5 12 11l3.5 3.5" />
    </>
  ),
};

export function ViewerIcon({ name, size }: { readonly name: IconName; readonly size?: number }) {
  return <Glyph size={size}>{PATHS[name]}</Glyph>;
}
