import type { PayProviderName } from '@xcad/db';
import { parseBeijingDateTime } from './pay-adapter';
import type { PayDeps } from './pay.deps';
import type { PayProvider } from './pay.provider';
import { reconcileStatement, type Discrepancy, type LedgerOrder } from './statement';

// Decision 0043: the daily reconciliation. For each provider, its statement of a Beijing day is
// compared with our orders paid that day (and every order the statement names) and the refunds that
// succeeded that day: every order whose state or amount disagrees is reported, both ways.
// `npm run pay:reconcile -- yyyy-MM-dd` runs it by hand; each API process runs it for yesterday once
// a day after RECONCILE_HOUR (Beijing), when both providers have made their statements.

export type ReconcileReport =
  | { provider: PayProviderName; billDate: string; rows: number; discrepancies: Discrepancy[] }
  | { provider: PayProviderName; billDate: string; error: string };

/** Both providers publish the previous day's statement by 10:00 Beijing time. */
export const RECONCILE_HOUR = 10;

export const BILL_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** The Beijing day before `nowSeconds`, yyyy-MM-dd. */
export function yesterdayOf(nowSeconds: number): string {
  return new Date((nowSeconds + 8 * 3_600 - 86_400) * 1000).toISOString().slice(0, 10);
}

async function ledgerOf(deps: PayDeps, provider: PayProviderName, billDate: string, named: readonly string[]): Promise<LedgerOrder[]> {
  const start = parseBeijingDateTime(`${billDate} 00:00:00`) ?? 0;
  const end = start + 86_400;
  let query = deps.db
    .selectFrom('pay_order')
    .select(['id', 'orderno', 'state', 'amount_fen', 'provider', 'paid_at'])
    .where((eb) => {
      const paidThatDay = eb.and([eb('provider', '=', provider), eb('paid_at', '>=', start), eb('paid_at', '<', end)]);
      return named.length === 0 ? paidThatDay : eb.or([paidThatDay, eb('orderno', 'in', [...named])]);
    });
  query = query.orderBy('orderno');
  const orders = await query.execute();
  const refunds =
    orders.length === 0
      ? []
      : await deps.db
          .selectFrom('pay_refund')
          .select(['order_id', 'amount_fen'])
          .where('state', '=', 'succeeded')
          .where('finished_at', '>=', start)
          .where('finished_at', '<', end)
          .where(
            'order_id',
            'in',
            orders.map((order) => order.id),
          )
          .execute();
  return orders.map((order) => ({
    orderno: order.orderno,
    // Paid with another provider: to this provider's statement the order is not paid.
    state: order.state === 'paid' && order.provider !== provider ? 'closed' : order.state,
    amountFen: order.amount_fen,
    refundedFen: refunds.filter((refund) => refund.order_id === order.id).reduce((sum, refund) => sum + refund.amount_fen, 0),
  }));
}

/** One day, every provider (the sandbox keeps no statement and says so). */
export async function reconcileDay(deps: PayDeps, billDate: string): Promise<ReconcileReport[]> {
  const providers = new Map<PayProviderName, PayProvider>();
  for (const provider of Object.values(deps.providers)) providers.set(provider.name, provider);
  const reports: ReconcileReport[] = [];
  for (const provider of providers.values()) {
    const rows = await provider.downloadStatement(billDate);
    if (typeof rows === 'string') {
      reports.push({ provider: provider.name, billDate, error: rows });
      continue;
    }
    const ledger = await ledgerOf(deps, provider.name, billDate, [...new Set(rows.map((row) => row.orderno))]);
    reports.push({ provider: provider.name, billDate, rows: rows.length, discrepancies: reconcileStatement(rows, ledger) });
  }
  return reports;
}

/** Logs a day's reports: each discrepancy as an error for the operator, a missing statement as a warning. */
export function logReports(deps: PayDeps, reports: readonly ReconcileReport[]): void {
  for (const report of reports) {
    if ('error' in report) {
      deps.log.warn({ provider: report.provider, billDate: report.billDate, detail: report.error }, 'reconciliation: no statement');
      continue;
    }
    for (const discrepancy of report.discrepancies) {
      deps.log.error(
        { provider: report.provider, billDate: report.billDate, ...discrepancy },
        'reconciliation: order disagrees with the statement',
      );
    }
    deps.log.info(
      { provider: report.provider, billDate: report.billDate, rows: report.rows, discrepancies: report.discrepancies.length },
      'reconciliation done',
    );
  }
}
