/** A small shield emblem beside the public-security filing number (drawn for this site). */
export function FilingBadge({ label }: { readonly label: string }) {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" role="img" aria-label={label}>
      <path d="M8 1 2.5 3v4.2C2.5 10.7 4.8 13.6 8 15c3.2-1.4 5.5-4.3 5.5-7.8V3z" fill="#d8b25c" />
      <path d="M8 2.3 3.7 3.9v3.3c0 2.8 1.8 5.2 4.3 6.4 2.5-1.2 4.3-3.6 4.3-6.4V3.9z" fill="#c0392b" />
      <path d="m8 4.6.8 1.7 1.8.2-1.3 1.3.3 1.8L8 8.7l-1.6.9.3-1.8-1.3-1.3 1.8-.2z" fill="#ffd66b" />
    </svg>
  );
}
