import 'server-only';
import { ZAnalyticsReport, type TAnalyticsReport } from '@xcad/protocol';
import { operatorRead } from '@/lib/operator/server';
import type { ReportRange } from './report-range';

// The operator report for the page being rendered (decision 0022), read in the back office (decision
// 0042): GET /api/operator/analytics/report with the console's own session, so the API's operator
// guard decides who may read it (管理员, 财务, 内容编辑); 400 is a range the API refused.

export type ReportLoad =
  | { readonly kind: 'ok'; readonly report: TAnalyticsReport }
  /** The API refused the range itself; its message. */
  | { readonly kind: 'refused'; readonly message: string }
  /** The API could not be asked or answered nonsense. */
  | { readonly kind: 'unavailable' };

export async function loadAnalyticsReport(range: ReportRange): Promise<ReportLoad> {
  const load = await operatorRead(
    `/api/operator/analytics/report?${new URLSearchParams({ from: range.from, to: range.to }).toString()}`,
    ZAnalyticsReport,
  );
  if (load.kind === 'ok') return { kind: 'ok', report: load.body };
  if (load.kind === 'failed' && load.message !== '') return { kind: 'refused', message: load.message };
  return { kind: 'unavailable' };
}
