// Shared set-up of the analytics API tests: events as the tracker builds them, and posting them.
import { randomUUID } from 'node:crypto';
import { SESSION_COOKIE } from '@xcad/protocol';
import type { DatabaseConfig } from '@xcad/db';
import type { TestApp } from '../../test-app';

export const EVENTS_URL = '/api/analytics/events';
export const DAY_MS = 86_400_000;

/** The Beijing calendar day of a time, computed independently of the code under test. */
export function beijingDay(epochMs: number): string {
  return new Date(epochMs + 8 * 3_600_000).toISOString().slice(0, 10);
}

/** `hour` o'clock Beijing time on the Beijing day `daysAgo` days before the app's today. */
export function beijingTime(t: TestApp, daysAgo: number, hour = 12, minute = 0): number {
  const day = beijingDay(t.clock.now() - daysAgo * DAY_MS);
  return Date.parse(`${day}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00+08:00`);
}

/** A device of its own for each test (the per-device limit, the distinct-device counts). */
export function freshDevice(): string {
  return `d-${randomUUID()}`;
}

/** One event with the common fields filled in as the web tracker fills them. */
export function trackerEvent(t: TestApp, deviceId: string, own: Record<string, unknown>): Record<string, unknown> {
  return {
    software_name: 'web',
    software_version: 'online',
    channel: 'direct',
    platform: 'WEB',
    uid: `u-${deviceId}`,
    device_id: deviceId,
    page: '/',
    time: t.clock.now(),
    ...own,
  };
}

export interface PostOptions {
  ip?: string;
  usertoken?: string;
  contentType?: string;
}

export async function postEvents(t: TestApp, events: unknown[], options: PostOptions = {}) {
  return postBody(t, JSON.stringify({ events }), options);
}

export async function postBody(
  t: TestApp,
  body: string,
  { ip = '10.9.0.1', usertoken, contentType = 'application/json' }: PostOptions = {},
) {
  const headers: Record<string, string> = { 'content-type': contentType };
  if (usertoken !== undefined) headers['cookie'] = `${SESSION_COOKIE}=${usertoken}`;
  return t.app.inject({ method: 'POST', url: EVENTS_URL, payload: body, headers, remoteAddress: ip });
}

export function getAs(t: TestApp, url: string, usertoken?: string) {
  return t.app.inject({ method: 'GET', url, headers: usertoken === undefined ? {} : { cookie: `${SESSION_COOKIE}=${usertoken}` } });
}

/** How the command line would reach the test's database. */
export function databaseConfigOf(t: TestApp): DatabaseConfig {
  return t.database.engine === 'postgres' ? { databaseUrl: t.database.location } : { sqlitePath: t.database.location };
}
