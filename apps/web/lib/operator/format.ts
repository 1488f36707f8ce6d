// How the console writes times and money (decision 0042): Beijing time, to the minute; yuan with fen.

const BEIJING_OFFSET_MS = 8 * 3_600_000;

/** Epoch seconds as YYYY-MM-DD HH:mm in Beijing time; '' for 0. */
export function beijingTime(epochSeconds: number): string {
  if (epochSeconds <= 0) return '';
  return new Date(epochSeconds * 1000 + BEIJING_OFFSET_MS).toISOString().slice(0, 16).replace('T', ' ');
}

export function yuanOf(fen: number): string {
  return (fen / 100).toFixed(2);
}

/** A console list's query string with one value changed (filters stay in the URL, a link can be shared). */
export function queryWith(current: Readonly<Record<string, string>>, changes: Readonly<Record<string, string>>): string {
  const merged = { ...current, ...changes };
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(merged)) if (value !== '') params.set(key, value);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** The first value of a query parameter, '' when absent. */
export function firstOf(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}
