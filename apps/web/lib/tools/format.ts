// Sizes and times as the tool pages show them. No protocol imports: the phone share page uses
// these without the API client.

const SIZE_UNITS: readonly (readonly [string, number])[] = [
  ['GB', 1024 ** 3],
  ['MB', 1024 ** 2],
  ['KB', 1024],
];

/** A size as people read it: 0.1 KB at least, one decimal below 100 (12.4 MB, 356 KB, 1.2 GB). */
export function formatBytes(bytes: number): string {
  const [unit, size] = SIZE_UNITS.find(([, unitSize]) => bytes >= unitSize) ?? ['KB', 1024];
  const value = bytes / size;
  const text = value >= 100 ? Math.round(value).toString() : Math.max(0.1, Math.round(value * 10) / 10).toString();
  return `${text} ${unit}`;
}

/** Time left before deletion, in whole hours and minutes (never negative). */
export function timeLeftOf(expiretime: number, nowSeconds: number): { hours: number; minutes: number } {
  const minutes = Math.max(0, Math.floor((expiretime - nowSeconds) / 60));
  return { hours: Math.floor(minutes / 60), minutes: minutes % 60 };
}
