import { sql, type SqlBool } from 'kysely';
import type { Executor, OperatorRoleName, UserStatus } from '@xcad/db';

// The back office's SQL in the auth module (decision 0042): operator roles, operator sessions, and
// the user search and account changes the console makes.

// --- Roles -----------------------------------------------------------------------------------

export async function rolesOf(db: Executor, userId: number): Promise<OperatorRoleName[]> {
  const rows = await db.selectFrom('operator_role').select('role').where('user_id', '=', userId).orderBy('role').execute();
  return rows.map((row) => row.role);
}

/** False when the user held the role already. */
export async function insertRole(
  db: Executor,
  userId: number,
  role: OperatorRoleName,
  grantedBy: number | null,
  now: number,
): Promise<boolean> {
  const result = await db
    .insertInto('operator_role')
    .values({ user_id: userId, role, granted_at: now, granted_by: grantedBy })
    .onConflict((conflict) => conflict.columns(['user_id', 'role']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** False when the user did not hold the role. */
export async function deleteRole(db: Executor, userId: number, role: OperatorRoleName): Promise<boolean> {
  const result = await db.deleteFrom('operator_role').where('user_id', '=', userId).where('role', '=', role).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function countRoleHolders(db: Executor, role: OperatorRoleName): Promise<number> {
  const row = await db
    .selectFrom('operator_role')
    .innerJoin('app_user', 'app_user.id', 'operator_role.user_id')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('operator_role.role', '=', role)
    .where('app_user.status', '=', 'active')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function operatorsWithRoles(db: Executor) {
  return db
    .selectFrom('operator_role')
    .innerJoin('app_user', 'app_user.id', 'operator_role.user_id')
    .select(['app_user.id', 'app_user.mobile', 'app_user.nickname', 'app_user.status', 'operator_role.role'])
    .orderBy('app_user.id')
    .orderBy('operator_role.role')
    .execute();
}

// --- Sessions --------------------------------------------------------------------------------

export interface NewOperatorSession {
  userId: number;
  tokenHash: string;
  csrfToken: string;
  ip: string;
  now: number;
}

export async function insertOperatorSession(db: Executor, session: NewOperatorSession): Promise<void> {
  await db
    .insertInto('operator_session')
    .values({
      user_id: session.userId,
      token_hash: session.tokenHash,
      csrf_token: session.csrfToken,
      ip: session.ip,
      created_at: session.now,
      last_seen_at: session.now,
    })
    .execute();
}

export async function operatorSessionByHash(db: Executor, tokenHash: string) {
  return db
    .selectFrom('operator_session')
    .innerJoin('app_user', 'app_user.id', 'operator_session.user_id')
    .select([
      'operator_session.id',
      'operator_session.user_id',
      'operator_session.csrf_token',
      'operator_session.created_at',
      'operator_session.last_seen_at',
      'operator_session.revoked_at',
      'app_user.mobile',
      'app_user.nickname',
      'app_user.status',
    ])
    .where('operator_session.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function touchOperatorSession(db: Executor, id: number, now: number): Promise<void> {
  await db.updateTable('operator_session').set({ last_seen_at: now }).where('id', '=', id).execute();
}

export async function revokeOperatorSession(db: Executor, id: number, now: number): Promise<void> {
  await db.updateTable('operator_session').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

/** Ends every console session of the user (their roles changed, or the account was disabled). */
export async function revokeOperatorSessionsOf(db: Executor, userId: number, now: number): Promise<void> {
  await db.updateTable('operator_session').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}

// --- Users -----------------------------------------------------------------------------------

export interface UserSearch {
  /** An id, a phone, an e-mail or part of a nickname; '' for everyone. */
  q: string;
  status: UserStatus | '';
}

function searched(db: Executor, search: UserSearch) {
  let query = db.selectFrom('app_user');
  if (search.status !== '') query = query.where('app_user.status', '=', search.status);
  const q = search.q;
  if (q === '') return query;
  if (/^\d{1,10}$/.test(q) && !/^1\d{10}$/.test(q)) {
    // A number shorter than a phone is an id; a phone-shaped one is looked up as both.
    return query.where('app_user.id', '=', Number(q));
  }
  if (/^(86-)?1\d{10}$/.test(q)) {
    const phone = q.replace(/^86-/, '');
    return query.where((eb) => eb.or([eb('app_user.mobile', '=', phone), eb('app_user.username', '=', phone)]));
  }
  if (q.includes('@')) return query.where('app_user.email', '=', q);
  // Part of a nickname: % and _ typed by the operator are literal characters (escaped alike on both engines).
  const pattern = `%${q.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  return query.where((eb) => eb.or([sql<SqlBool>`app_user.nickname like ${pattern} escape '\\'`, eb('app_user.username', '=', q)]));
}

export async function countUsers(db: Executor, search: UserSearch): Promise<number> {
  const row = await searched(db, search)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** What the console shows of a user, in its lists and on the user's page. */
const USER_COLUMNS = [
  'app_user.id',
  'app_user.username',
  'app_user.mobile',
  'app_user.email',
  'app_user.nickname',
  'app_user.status',
  'app_user.created_at',
  'app_user.updated_at',
  'app_user.password_hash',
] as const;

export async function userPage(db: Executor, search: UserSearch, limit: number, offset: number) {
  return searched(db, search).select(USER_COLUMNS).orderBy('app_user.id', 'desc').limit(limit).offset(offset).execute();
}

export async function userRowById(db: Executor, userId: number) {
  return db.selectFrom('app_user').select(USER_COLUMNS).where('app_user.id', '=', userId).executeTakeFirst();
}

export async function identitiesOf(db: Executor, userId: number): Promise<string[]> {
  const rows = await db.selectFrom('user_identity').select('provider').where('user_id', '=', userId).execute();
  return rows.map((row) => row.provider);
}

export async function countLiveSessions(db: Executor, userId: number, now: number): Promise<number> {
  const row = await db
    .selectFrom('user_session')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function setUserStatus(db: Executor, userId: number, status: UserStatus, now: number): Promise<void> {
  await db.updateTable('app_user').set({ status, updated_at: now }).where('id', '=', userId).execute();
}

export async function countUsersSince(db: Executor, fromAt: number): Promise<number> {
  const row = await db
    .selectFrom('app_user')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('created_at', '>=', fromAt)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
