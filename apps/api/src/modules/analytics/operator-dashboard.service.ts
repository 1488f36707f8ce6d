import type { Kysely } from 'kysely';
import type { Database } from '@xcad/db';
import type { TDashboard, TDashboardFigures } from '@xcad/protocol';
import { countSignupsSince } from '../auth/operator.service';
import { conversionFigures, queueFigures } from '../conversion/operator-conversion.service';
import { openTickets } from '../feedback/operator-feedback.service';
import { invoicesWaiting, paidOrderFigures } from '../pay/operator-pay.service';
import { rangeTotals } from './analytics.repository';
import { addDays, beijingDayOf } from './analytics-rules';

// The console's 概览 (decision 0042): today and the 7 days ending today (Beijing days), each figure
// from the module that owns it, and what waits for someone now.

const BEIJING_OFFSET_SECONDS = 8 * 3600;

function dayStart(day: string): number {
  return Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) - BEIJING_OFFSET_SECONDS;
}

async function figuresFrom(db: Kysely<Database>, fromDay: string, today: string): Promise<TDashboardFigures> {
  const fromAt = dayStart(fromDay);
  const [totals, signups, paid, conversions] = await Promise.all([
    rangeTotals(db, { from: fromDay, to: today }),
    countSignupsSince(db, fromAt),
    paidOrderFigures(db, fromAt),
    conversionFigures(db, fromAt),
  ]);
  return {
    visitors: totals.visitors,
    signups,
    orders: paid.orders,
    revenueFen: paid.revenueFen,
    conversions: conversions.tasks,
    conversionsFailed: conversions.failed,
  };
}

export async function dashboard(db: Kysely<Database>, nowMs: number): Promise<TDashboard> {
  const today = beijingDayOf(nowMs);
  const [todays, week, tickets, invoices, queue] = await Promise.all([
    figuresFrom(db, today, today),
    figuresFrom(db, addDays(today, -6), today),
    openTickets(db),
    invoicesWaiting(db),
    queueFigures(db),
  ]);
  return { today: todays, week, openTickets: tickets, invoicesWaiting: invoices, queued: queue.queued, processing: queue.processing };
}
