import type { Executor } from '@xcad/db';
import { maskPhone, OPERATOR_LIMITS, type TAuditPage, type TAuditQuery } from '@xcad/protocol';
import { auditPage, countAudit, insertAudit, type AuditFilter } from './audit.repository';

// The audit log (decision 0042): every change made in the back office is written here, in the same
// transaction as the change itself (a change without its entry, or an entry without its change,
// cannot happen). Who, when, what, the state before and after, the reason, and from where.

export interface AuditActor {
  operatorId: number;
  ip: string;
}

export interface AuditChange {
  action: string;
  targetType: string;
  targetId: string | number;
  before?: unknown;
  after?: unknown;
  reason?: string;
}

function jsonOf(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

/** Appends the entry of a change, in the caller's transaction. */
export async function recordAudit(trx: Executor, actor: AuditActor, change: AuditChange, nowSeconds: number): Promise<void> {
  await insertAudit(trx, {
    at: nowSeconds,
    operator_id: actor.operatorId,
    action: change.action,
    target_type: change.targetType,
    target_id: String(change.targetId),
    before: jsonOf(change.before),
    after: jsonOf(change.after),
    reason: change.reason ?? '',
    ip: actor.ip,
  });
}

const BEIJING_OFFSET_SECONDS = 8 * 3600;

/** The first second of a Beijing calendar day (YYYY-MM-DD). */
function beijingDayStart(day: string): number {
  return Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) - BEIJING_OFFSET_SECONDS;
}

function parsed(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A page of the log, newest first, filtered as the query says. */
export async function readAudit(db: Executor, query: TAuditQuery): Promise<TAuditPage> {
  const filter: AuditFilter = {
    operatorId: query.operator,
    action: query.action || undefined,
    targetType: query.targetType || undefined,
    targetId: query.targetId || undefined,
    fromAt: query.from === undefined ? undefined : beijingDayStart(query.from),
    toAt: query.to === undefined ? undefined : beijingDayStart(query.to) + 86_400,
  };
  const pageSize = OPERATOR_LIMITS.pageSize;
  const [total, rows] = await Promise.all([countAudit(db, filter), auditPage(db, filter, pageSize, (query.page - 1) * pageSize)]);
  return {
    total,
    page: query.page,
    pageSize,
    entries: rows.map((row) => ({
      id: Number(row.id),
      at: Number(row.at),
      operatorId: Number(row.operator_id),
      operatorName: row.nickname ?? (row.mobile === null || row.mobile === undefined ? '' : maskPhone(row.mobile)),
      action: row.action,
      targetType: row.target_type,
      targetId: row.target_id,
      before: parsed(row.before),
      after: parsed(row.after),
      reason: row.reason,
      ip: row.ip,
    })),
  };
}

/** The latest entries about one target (a user's page shows its history), newest first. */
export async function auditOfTarget(db: Executor, targetType: string, targetId: string | number, limit = 100) {
  const rows = await auditPage(db, { targetType, targetId: String(targetId) }, limit, 0);
  return rows.map((row) => ({
    at: Number(row.at),
    action: row.action,
    operatorName: row.nickname ?? '',
    before: parsed(row.before),
    after: parsed(row.after),
    reason: row.reason,
  }));
}
