// The date rules of the content authored under content/ (posts, drawings, software releases):
// calendar dates written YYYY-MM-DD, meant in Asia/Shanghai.

/** Whether `value` (YYYY-MM-DD) names a day that exists (no 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  const [year, month, day] = value.split('-').map(Number);
  if (year === undefined || month === undefined || day === undefined) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * A calendar date in Asia/Shanghai (YYYY-MM-DD) as epoch seconds at 09:00 local time. Shanghai
 * has been UTC+8 all year since 1991, so the offset is fixed.
 */
export function shanghaiDateToEpoch(date: string): number {
  const [year, month, day] = date.split('-').map(Number);
  if (year === undefined || month === undefined || day === undefined || !isCalendarDate(date)) {
    throw new Error(`not a calendar date: ${date}`);
  }
  return Date.UTC(year, month - 1, day, 9 - 8) / 1000;
}
