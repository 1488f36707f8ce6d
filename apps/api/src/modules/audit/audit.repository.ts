import type { Executor } from '@xcad/db';

// The audit log's SQL (decision 0042). Insert and read only: the log is append-only, so this file
// has no update or delete of it (and the database's triggers refuse both).

export interface NewAuditRow {
  at: number;
  operator_id: number;
  action: string;
  target_type: string;
  target_id: string;
  before: string | null;
  after: string | null;
  reason: string;
  ip: string;
}

export async function insertAudit(db: Executor, row: NewAuditRow): Promise<void> {
  await db.insertInto('audit_log').values(row).execute();
}

export interface AuditFilter {
  operatorId?: number | undefined;
  action?: string | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  fromAt?: number | undefined;
  toAt?: number | undefined;
}

function filtered(db: Executor, filter: AuditFilter) {
  let query = db.selectFrom('audit_log');
  if (filter.operatorId !== undefined) query = query.where('audit_log.operator_id', '=', filter.operatorId);
  if (filter.action !== undefined) query = query.where('audit_log.action', '=', filter.action);
  if (filter.targetType !== undefined) query = query.where('audit_log.target_type', '=', filter.targetType);
  if (filter.targetId !== undefined) query = query.where('audit_log.target_id', '=', filter.targetId);
  if (filter.fromAt !== undefined) query = query.where('audit_log.at', '>=', filter.fromAt);
  if (filter.toAt !== undefined) query = query.where('audit_log.at', '<', filter.toAt);
  return query;
}

export async function countAudit(db: Executor, filter: AuditFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function auditPage(db: Executor, filter: AuditFilter, limit: number, offset: number) {
  return filtered(db, filter)
    .leftJoin('app_user', 'app_user.id', 'audit_log.operator_id')
    .select([
      'audit_log.id',
      'audit_log.at',
      'audit_log.operator_id',
      'audit_log.action',
      'audit_log.target_type',
      'audit_log.target_id',
      'audit_log.before',
      'audit_log.after',
      'audit_log.reason',
      'audit_log.ip',
      'app_user.nickname',
      'app_user.mobile',
    ])
    .orderBy('audit_log.at', 'desc')
    .orderBy('audit_log.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}
