import 'server-only';
import { cookies } from 'next/headers';
import { SESSION_COOKIE, ZAnalyticsReport, type TAnalyticsReport } from '@xcad/protocol';
import { siteConfig } from '@/config/site';
import type { ReportRange } from './report-range';

// The operator report for the page being rendered (decision 0022): GET /api/analytics/report at the API
// with the visitor's own session cookie, so the API decides who is an operator (401 signed out,
// 403 not an operator; the envelope is documented in apps/api/src/modules/analytics/analytics.routes.ts).

export type ReportLoad =
  | { readonly kind: 'ok'; readonly report: TAnalyticsReport }
  | { readonly kind: 'signedOut' }
  | { readonly kind: 'forbidden' }
  /** The API refused the range itself; its message. */
  | { readonly kind: 'refused'; readonly message: string }
  /** The API could not be asked or answered nonsense. */
  | { readonly kind: 'unavailable' };

const TIMEOUT_MS = 20_000;

function messageOf(body: unknown): string {
  if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') return body.message;
  return '';
}

export async function loadAnalyticsReport(range: ReportRange): Promise<ReportLoad> {
  const usertoken = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!usertoken) return { kind: 'signedOut' };
  const url = `${siteConfig().apiOrigin}/api/analytics/report?${new URLSearchParams({ from: range.from, to: range.to }).toString()}`;
  let response: Response;
  let body: unknown;
  try {
    response = await fetch(url, {
      headers: { cookie: `${SESSION_COOKIE}=${usertoken}` },
      cache: 'no-store',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    body = await response.json().catch(() => undefined);
  } catch (error) {
    console.error(`[web] the analytics report could not be read: ${error instanceof Error ? error.message : String(error)}`);
    return { kind: 'unavailable' };
  }
  if (response.status === 401) return { kind: 'signedOut' };
  if (response.status === 403) return { kind: 'forbidden' };
  if (response.status === 400) return { kind: 'refused', message: messageOf(body) };
  const report = ZAnalyticsReport.safeParse(body);
  if (!response.ok || !report.success) {
    console.error(`[web] the analytics report answered HTTP ${response.status}${report.success ? '' : ' with an unreadable body'}`);
    return { kind: 'unavailable' };
  }
  return { kind: 'ok', report: report.data };
}
