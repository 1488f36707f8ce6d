import { useId } from 'react';

/** The brand mark: a CAD crosshair cursor with its pick box on a brand-blue tile. */
export function LogoMark({ size = 32, className }: { readonly size?: number; readonly className?: string }) {
  const gradientId = `${useId()}-logo`;
  return (
    <svg className={className} width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#3d7cff" />
          <stop offset="1" stopColor="#1a55d1" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill={`url(#${gradientId})`} />
      <g stroke="#fff" strokeWidth="2.4" strokeLinecap="round" fill="none">
        <path d="M16 6.5v6M16 19.5v6M6.5 16h6M19.5 16h6" />
        <rect x="13" y="13" width="6" height="6" rx="1" />
      </g>
      <circle cx="24.5" cy="7.5" r="2.5" fill="#7ee0ff" />
    </svg>
  );
}
