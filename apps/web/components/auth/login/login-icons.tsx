// Sign-in method marks drawn for the modal (no brand assets fetched): WeChat's two speech bubbles,
// a penguin-like QQ mark, a phone, a QR code and a result badge.

interface GlyphProps {
  readonly size?: number;
  readonly className?: string;
}

export function WechatGlyph({ size = 24, className }: GlyphProps) {
  return (
    <svg className={className} width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M9.2 3.5C5.2 3.5 2 6.2 2 9.5c0 1.9 1 3.5 2.6 4.6l-.6 2 2.3-1.2c.9.3 1.9.4 2.9.4h.5a5.4 5.4 0 0 1-.2-1.4c0-3.3 3.1-5.9 7-5.9h.4c-.6-2.8-3.7-5-7.7-5zM6.8 8.4a.9.9 0 1 1 0-1.8.9.9 0 0 1 0 1.8zm4.8 0a.9.9 0 1 1 0-1.8.9.9 0 0 1 0 1.8z"
      />
      <path
        fill="currentColor"
        d="M22 13.9c0-2.8-2.7-5-6-5s-6 2.2-6 5 2.7 5 6 5c.7 0 1.4-.1 2-.3l1.9 1-.5-1.6c1.6-1 2.6-2.4 2.6-4.1zm-8-1a.8.8 0 1 1 0-1.5.8.8 0 0 1 0 1.5zm4 0a.8.8 0 1 1 0-1.5.8.8 0 0 1 0 1.5z"
      />
    </svg>
  );
}

export function QqGlyph({ size = 24, className }: GlyphProps) {
  return (
    <svg className={className} width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M12 2.2c-3.2 0-5.4 2.5-5.4 5.9v1.2c-.9 1-1.9 2.6-2.3 4.2-.4 1.8.1 2.6.5 2.6.5 0 1-.8 1.4-1.6.3 1.3 1 2.4 2 3.3-1.2.4-2 1-2 1.7 0 1 1.9 1.6 4.1 1.6 1.3 0 2.4-.2 3.2-.6h.9c.8.4 1.9.6 3.2.6 2.2 0 4.1-.6 4.1-1.6 0-.7-.8-1.3-2-1.7 1-.9 1.7-2 2-3.3.4.8.9 1.6 1.4 1.6.4 0 .9-.8.5-2.6-.4-1.6-1.4-3.2-2.3-4.2V8.1c0-3.4-2.2-5.9-5.3-5.9z"
      />
    </svg>
  );
}

export function SmartphoneGlyph({ size = 24, className }: GlyphProps) {
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      aria-hidden="true"
      focusable="false"
    >
      <rect x="6" y="2.5" width="12" height="19" rx="2.5" />
      <path d="M10.5 18.5h3" />
    </svg>
  );
}

export function QrGlyph({ size = 24, className }: GlyphProps) {
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <rect x="3.5" y="3.5" width="6.5" height="6.5" rx="1" />
      <rect x="14" y="3.5" width="6.5" height="6.5" rx="1" />
      <rect x="3.5" y="14" width="6.5" height="6.5" rx="1" />
      <path d="M14 14h2.5v2.5H14zM18 18h2.5v2.5H18zM14 19h1.5M19.5 14v1.5" />
    </svg>
  );
}

export function ResultBadge({ tone, size = 56, className }: GlyphProps & { readonly tone: 'success' | 'notice' }) {
  return (
    <svg className={className} width={size} height={size} viewBox="0 0 56 56" aria-hidden="true" focusable="false">
      <circle cx="28" cy="28" r="28" fill={tone === 'success' ? '#e8f7ee' : '#fff4e5'} />
      <circle cx="28" cy="28" r="19" fill={tone === 'success' ? '#16a34a' : '#f59e0b'} />
      {tone === 'success' ? (
        <path d="M19.5 28.5l6 6 11-12" fill="none" stroke="#fff" strokeWidth="3.6" strokeLinecap="round" strokeLinejoin="round" />
      ) : (
        <path d="M28 19.5v11M28 36.5v.5" fill="none" stroke="#fff" strokeWidth="3.8" strokeLinecap="round" />
      )}
    </svg>
  );
}
