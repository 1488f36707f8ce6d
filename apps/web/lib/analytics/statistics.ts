// spec §1 and §7: a third-party visitor-statistics script (Baidu Tongji) injected into the head
// when the deployment names its site id (env BAIDU_TONGJI_ID); none by default.

const BAIDU_TONGJI_ORIGIN = 'https://hm.baidu.com';

/** Baidu Tongji site ids are 32 hexadecimal characters (the `hm.js?…` of its install snippet). */
const SITE_ID_PATTERN = /^[0-9a-f]{32}$/i;

export type StatisticsSiteId =
  { readonly kind: 'none' } | { readonly kind: 'valid'; readonly id: string } | { readonly kind: 'invalid'; readonly value: string };

/** Reads the configured site id: unset or blank is none; anything but 32 hex digits is refused. */
export function parseStatisticsSiteId(raw: string | undefined): StatisticsSiteId {
  const value = raw?.trim() ?? '';
  if (value === '') return { kind: 'none' };
  return SITE_ID_PATTERN.test(value) ? { kind: 'valid', id: value.toLowerCase() } : { kind: 'invalid', value };
}

/** The script's address for a site id. */
export function statisticsScriptSrc(siteId: string): string {
  return `${BAIDU_TONGJI_ORIGIN}/hm.js?${encodeURIComponent(siteId)}`;
}
