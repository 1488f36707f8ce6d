import { z } from 'zod';

// Dates as authors write them in content/ (front matter and YAML): YYYY-MM-DD on the calendar of
// Asia/Shanghai, where the site's readers are. Shared by every import of content/.

export function isCalendarDate(value: string): boolean {
  const [year, month, day] = value.split('-').map(Number);
  if (year === undefined || month === undefined || day === undefined) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export const ZSourceDate = z
  .string({ error: 'must be a date written YYYY-MM-DD' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD')
  .refine(isCalendarDate, 'is not a calendar date');

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
