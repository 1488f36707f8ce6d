// What the two real payment adapters share besides their HTTP calls (lib/vendor-http.ts): Beijing
// wall-clock times, in which both vendors write dates, and money written as yuan.

const BEIJING_OFFSET_MS = 8 * 3600 * 1000;

/** `yyyy-MM-ddTHH:mm:ss` on the Beijing clock (UTC+8 all year, no daylight saving). */
export function beijingDateTime(epochSeconds: number): string {
  return new Date(Math.floor(epochSeconds) * 1000 + BEIJING_OFFSET_MS).toISOString().slice(0, 19);
}

/** Epoch seconds of a Beijing `yyyy-MM-dd HH:mm:ss`, or undefined when `text` is not one. */
export function parseBeijingDateTime(text: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  const utc = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 2024-02-30 over to March; a real timestamp never needs that.
  if (new Date(utc).getUTCDate() !== day || new Date(utc).getUTCMonth() !== month - 1) return undefined;
  return (utc - BEIJING_OFFSET_MS) / 1000;
}

/** Epoch seconds of an RFC 3339 time such as WeChat's `2024-05-01T16:00:05+08:00`. */
export function parseRfc3339(text: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/** A fen amount as yuan with two decimals, as Alipay writes money: 1990 -> "19.90". */
export function yuanOf(fen: number): string {
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}

/** Fen of a yuan string ("19.9", "19.90", "20"), read as decimal text so no float rounding creeps in. */
export function fenOf(yuan: string): number | undefined {
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(yuan);
  if (match === null) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
