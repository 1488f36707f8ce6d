import type { Generated, Selectable } from 'kysely';

// Tables of the back office (migration 2026-11-30T0100_operator-console, decision 0042). Epochs are seconds.

/** admin 管理员, support 客服, finance 财务, editor 内容编辑 (OPERATOR_ROLES in @xcad/protocol). */
export type OperatorRoleName = 'admin' | 'support' | 'finance' | 'editor';

export interface OperatorRoleTable {
  user_id: number;
  role: OperatorRoleName;
  granted_at: number;
  /** The operator who granted it; null for `npm run operator:create`. */
  granted_by: number | null;
}

/** A console session, opened by an SMS code; idle for OPERATOR_LIMITS.idleSeconds it is over. */
export interface OperatorSessionTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 hex of the cookie's token; the token itself is never stored. */
  token_hash: string;
  /** What the console's own pages send back in x-csrf-token on every change. */
  csrf_token: string;
  ip: string;
  created_at: number;
  last_seen_at: number;
  revoked_at: number | null;
}

/** One change made in the console; append-only (no update or delete path, a trigger refuses both). */
export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  operator_id: number;
  /** What was done, `<domain>.<verb>` (AUDIT_ACTIONS in @xcad/protocol). */
  action: string;
  target_type: string;
  target_id: string;
  /** JSON of the state before and after; null when there was none (a creation, a deletion). */
  before: string | null;
  after: string | null;
  reason: Generated<string>;
  ip: Generated<string>;
}

export interface OperatorTables {
  operator_role: OperatorRoleTable;
  operator_session: OperatorSessionTable;
  audit_log: AuditLogTable;
}

export type AuditLogRow = Selectable<AuditLogTable>;
