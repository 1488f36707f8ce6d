import type { SoftwarePlatform } from '@/lib/software/software';

// Small line pictures of where a download runs (24x24, stroke = currentColor), drawn for this
// site: a desktop window for Windows, a laptop for macOS, a phone for the mobile apps.

export function PlatformIcon({ platform, className }: { readonly platform: SoftwarePlatform; readonly className?: string }) {
  return (
    <svg
      className={className}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {platform === 'windows' || platform === 'windows32' ? (
        <>
          <rect x="3" y="4" width="18" height="13" rx="1.5" />
          <path d="M3 8h18M8 21h8M12 17v4" />
        </>
      ) : platform === 'mac' ? (
        <>
          <rect x="4.5" y="5" width="15" height="10.5" rx="1.5" />
          <path d="M2.5 19h19l-1.5-3.5H4z" />
        </>
      ) : (
        <>
          <rect x="6.5" y="2.5" width="11" height="19" rx="2.5" />
          <path d="M10.5 18.5h3" />
          {platform === 'android' ? <path d="M9.5 6.5h5" /> : <circle cx="12" cy="6" r="0.6" fill="currentColor" />}
        </>
      )}
    </svg>
  );
}
