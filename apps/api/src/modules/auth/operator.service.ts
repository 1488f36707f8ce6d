import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, Executor, OperatorRoleName, UserStatus } from '@xcad/db';
import {
  ApiError,
  LOGIN_ERRORS,
  OPERATOR_ERRORS,
  OPERATOR_LIMITS,
  OPERATOR_ROLES,
  PHONE_PATTERN,
  type OperatorErrorKind,
  type TOperatorMe,
  type TOperatorRole,
  type TOperatorRow,
  type TOperatorUserDetail,
  type TUserSearchPage,
  type TUserSearchQuery,
} from '@xcad/protocol';
import { recordAudit, type AuditActor } from '../audit/audit.service';
import type { AuthDeps, SignInContext } from './auth.contract';
import { newSessionToken, sha256Hex } from './credentials';
import {
  countLiveSessions,
  countRoleHolders,
  countUsers,
  countUsersSince,
  deleteRole,
  identitiesOf,
  insertOperatorSession,
  insertRole,
  operatorSessionByHash,
  operatorsWithRoles,
  revokeOperatorSession,
  revokeOperatorSessionsOf,
  rolesOf,
  setUserStatus,
  touchOperatorSession,
  userPage,
  userRowById,
} from './operator.repository';
import { maskedPhone, normalizePhone } from './phone';
import { revokeUserSessions } from './session.repository';
import { sendSmsCode, withSmsCode } from './sms-code.service';
import { findUserByMobile } from './user.repository';

// The back office's side of the auth module (decision 0042): operator roles, the operator's sign-in
// (their phone plus an SMS code every time: no password-only console session), the console session
// (its own cookie, 30 minutes idle at most) and the console's user calls. Every change goes to the
// audit log in the transaction that makes it.

export function operatorRefusal(kind: OperatorErrorKind, logMessage: string): ApiError {
  const { code, status, message } = OPERATOR_ERRORS[kind];
  return new ApiError({ code, httpStatus: status, userMessage: message, logMessage });
}

const seconds = (clock: () => number) => Math.floor(clock() / 1000);

function rolesInOrder(roles: readonly OperatorRoleName[]): TOperatorRole[] {
  return OPERATOR_ROLES.filter((role) => roles.includes(role));
}

// --- Roles (the command line's and the console's one path) -------------------------------------

/** Grants `role` to the user in the caller's transaction; false when they held it already. */
export async function grantOperatorRole(trx: Executor, userId: number, role: TOperatorRole, grantedBy: number | null, now: number) {
  return insertRole(trx, userId, role, grantedBy, now);
}

export async function operatorRolesOf(db: Executor, userId: number): Promise<TOperatorRole[]> {
  return rolesInOrder(await rolesOf(db, userId));
}

// --- Sign-in ---------------------------------------------------------------------------------

function phoneOf(input: string): string {
  const trimmed = input.trim();
  if (!PHONE_PATTERN.test(trimmed))
    throw new ApiError({ code: 10020, httpStatus: 400, userMessage: '请输入正确的手机号', logMessage: 'operator sign-in: not a phone' });
  return normalizePhone(trimmed);
}

/** The operator of a phone, if it is an active account holding at least one role. */
async function operatorOfPhone(db: Executor, phone: string) {
  const user = await findUserByMobile(db, phone);
  if (user === undefined) return undefined;
  const roles = await rolesOf(db, user.id);
  return roles.length === 0 ? undefined : { user, roles };
}

/**
 * Sends the sign-in code of an operator's phone, with the limits of every SMS code (decision 0010).
 * A phone that is not an operator's gets no code but the same answer: the form does not tell who
 * the operators are.
 */
export async function sendOperatorCode(deps: AuthDeps, input: string, context: SignInContext): Promise<void> {
  const phone = phoneOf(input);
  const operator = await operatorOfPhone(deps.db, phone);
  if (operator === undefined || operator.user.status !== 'active') {
    deps.log.info({ phone: maskedPhone(phone) }, 'operator code asked for a phone that is not an active operator: not sent');
    return;
  }
  await sendSmsCode(deps, { account: phone, verifytype: 'operatorlogin' }, context);
}

export interface OperatorSignIn {
  /** The cookie's token (only its hash is stored). */
  token: string;
  me: TOperatorMe;
}

/** Spends the code and opens a console session; the sign-in is audited. */
export async function operatorLogin(
  deps: AuthDeps,
  input: { phone: string; code: string },
  context: SignInContext,
): Promise<OperatorSignIn> {
  const phone = phoneOf(input.phone);
  const now = seconds(deps.clock);
  const token = newSessionToken();
  const csrf = randomBytes(24).toString('base64url');
  return withSmsCode(
    deps,
    { phone, purpose: 'operatorlogin', code: input.code.trim(), wrongCode: LOGIN_ERRORS.wrongSmsCode },
    now,
    async (trx) => {
      const operator = await operatorOfPhone(trx, phone);
      if (operator === undefined) throw operatorRefusal('notOperator', 'operator code spent by a phone that lost its roles');
      if (operator.user.status !== 'active') throw operatorRefusal('accountDisabled', 'operator sign-in of a disabled account');
      const userId = operator.user.id;
      await insertOperatorSession(trx, { userId, tokenHash: sha256Hex(token), csrfToken: csrf, ip: context.ip, now });
      await recordAudit(
        trx,
        { operatorId: userId, ip: context.ip },
        { action: 'operator.login', targetType: 'operator', targetId: userId },
        now,
      );
      return {
        token,
        me: {
          userId,
          maskedPhone: maskedPhone(phone),
          nickname: operator.user.nickname,
          roles: rolesInOrder(operator.roles),
          csrf,
          idleUntil: now + OPERATOR_LIMITS.idleSeconds,
        },
      };
    },
  );
}

export interface OperatorContext extends TOperatorMe {
  sessionId: number;
}

/**
 * The operator of a console session cookie: a live session (not revoked, used within the idle
 * limit, younger than the day's limit) of an active account that still holds a role. Refreshes the
 * idle clock. Anything else answers 401, and an expired session is ended for good.
 */
export async function resolveOperator(db: Executor, clock: () => number, token: string | undefined): Promise<OperatorContext> {
  if (token === undefined || token.length > 200) throw operatorRefusal('signInRequired', 'no operator session cookie');
  const now = seconds(clock);
  const session = await operatorSessionByHash(db, sha256Hex(token));
  if (session === undefined || session.revoked_at !== null) throw operatorRefusal('signInRequired', 'unknown or ended operator session');
  const lastSeen = Number(session.last_seen_at);
  if (now - lastSeen >= OPERATOR_LIMITS.idleSeconds || now - Number(session.created_at) >= OPERATOR_LIMITS.maxSeconds) {
    await revokeOperatorSession(db, session.id, now);
    throw operatorRefusal('signInRequired', 'operator session expired');
  }
  const userId = Number(session.user_id);
  const roles = rolesInOrder(await rolesOf(db, userId));
  if (session.status !== 'active' || roles.length === 0) {
    await revokeOperatorSession(db, session.id, now);
    throw operatorRefusal('signInRequired', 'operator session of a disabled account or one without roles');
  }
  let seen = lastSeen;
  if (now - lastSeen >= OPERATOR_LIMITS.touchSeconds) {
    await touchOperatorSession(db, session.id, now);
    seen = now;
  }
  return {
    sessionId: Number(session.id),
    userId,
    maskedPhone: session.mobile === null ? '' : maskedPhone(session.mobile),
    nickname: session.nickname,
    roles,
    csrf: session.csrf_token,
    idleUntil: seen + OPERATOR_LIMITS.idleSeconds,
  };
}

export async function operatorLogout(db: Kysely<Database>, clock: () => number, operator: OperatorContext, ip: string): Promise<void> {
  const now = seconds(clock);
  await db.transaction().execute(async (trx) => {
    await revokeOperatorSession(trx, operator.sessionId, now);
    await recordAudit(
      trx,
      { operatorId: operator.userId, ip },
      { action: 'operator.logout', targetType: 'operator', targetId: operator.userId },
      now,
    );
  });
}

// --- Operators (管理员) -------------------------------------------------------------------------

export async function listOperators(db: Executor): Promise<TOperatorRow[]> {
  const byUser = new Map<number, TOperatorRow>();
  for (const row of await operatorsWithRoles(db)) {
    const userId = Number(row.id);
    const entry = byUser.get(userId) ?? {
      userId,
      maskedPhone: row.mobile === null ? '' : maskedPhone(row.mobile),
      nickname: row.nickname,
      roles: [],
      status: row.status,
    };
    entry.roles.push(row.role);
    byUser.set(userId, entry);
  }
  return [...byUser.values()].map((entry) => ({ ...entry, roles: rolesInOrder(entry.roles) }));
}

export interface RoleChange {
  phone?: string | undefined;
  userId?: number | undefined;
  role: TOperatorRole;
  reason: string;
}

async function targetUserId(db: Executor, change: RoleChange): Promise<number> {
  if (change.userId !== undefined) {
    if ((await userRowById(db, change.userId)) === undefined)
      throw operatorRefusal('notFound', `role change of unknown user ${change.userId}`);
    return change.userId;
  }
  if (change.phone === undefined) throw operatorRefusal('malformed', 'role change without a user');
  const user = await findUserByMobile(db, phoneOf(change.phone));
  if (user === undefined) throw operatorRefusal('notFound', 'role change of a phone without an account');
  return user.id;
}

/** A 管理员 grants a role (audited); granting a role held already changes nothing and writes nothing. */
export async function grantRoleByOperator(db: Kysely<Database>, clock: () => number, actor: AuditActor, change: RoleChange) {
  const now = seconds(clock);
  return db.transaction().execute(async (trx) => {
    const userId = await targetUserId(trx, change);
    const before = rolesInOrder(await rolesOf(trx, userId));
    const granted = await insertRole(trx, userId, change.role, actor.operatorId, now);
    const after = rolesInOrder(await rolesOf(trx, userId));
    if (granted) {
      await recordAudit(
        trx,
        actor,
        {
          action: 'operator.grantRole',
          targetType: 'user',
          targetId: userId,
          before: { roles: before },
          after: { roles: after },
          reason: change.reason,
        },
        now,
      );
    }
    return { userId, roles: after, changed: granted };
  });
}

/** A 管理员 removes a role (audited); the last active 管理员 keeps theirs. The user's console sessions end. */
export async function removeRoleByOperator(db: Kysely<Database>, clock: () => number, actor: AuditActor, change: RoleChange) {
  const now = seconds(clock);
  return db.transaction().execute(async (trx) => {
    const userId = await targetUserId(trx, change);
    const before = rolesInOrder(await rolesOf(trx, userId));
    if (change.role === 'admin' && before.includes('admin') && (await countRoleHolders(trx, 'admin')) <= 1) {
      throw operatorRefusal('lastAdmin', 'removing the last administrator');
    }
    const removed = await deleteRole(trx, userId, change.role);
    const after = rolesInOrder(await rolesOf(trx, userId));
    if (removed) {
      await revokeOperatorSessionsOf(trx, userId, now);
      await recordAudit(
        trx,
        actor,
        {
          action: 'operator.removeRole',
          targetType: 'user',
          targetId: userId,
          before: { roles: before },
          after: { roles: after },
          reason: change.reason,
        },
        now,
      );
    }
    return { userId, roles: after, changed: removed };
  });
}

// --- Users -----------------------------------------------------------------------------------

function userRowOf(row: NonNullable<Awaited<ReturnType<typeof userRowById>>>) {
  return {
    userId: Number(row.id),
    username: row.username,
    mobile: row.mobile,
    email: row.email,
    nickname: row.nickname,
    status: row.status,
    createdAt: Number(row.created_at),
  };
}

export async function searchUsers(db: Executor, query: TUserSearchQuery): Promise<TUserSearchPage> {
  const pageSize = OPERATOR_LIMITS.pageSize;
  const search = { q: query.q, status: query.status };
  const [total, rows] = await Promise.all([countUsers(db, search), userPage(db, search, pageSize, (query.page - 1) * pageSize)]);
  return { total, page: query.page, pageSize, users: rows.map(userRowOf) };
}

export async function userDetail(db: Executor, clock: () => number, userId: number): Promise<TOperatorUserDetail> {
  const row = await userRowById(db, userId);
  if (row === undefined) throw operatorRefusal('notFound', `no user ${userId}`);
  const [identities, liveSessions] = await Promise.all([identitiesOf(db, userId), countLiveSessions(db, userId, seconds(clock))]);
  return { ...userRowOf(row), hasPassword: row.password_hash !== null, identities, liveSessions, updatedAt: Number(row.updated_at) };
}

/**
 * Disables or enables an account (audited). Disabling ends every session of the account, the
 * site's and the console's: a disabled user is refused at once, not when a session runs out.
 */
export async function setAccountStatus(
  db: Kysely<Database>,
  clock: () => number,
  actor: AuditActor,
  userId: number,
  status: UserStatus,
  reason: string,
) {
  const now = seconds(clock);
  return db.transaction().execute(async (trx) => {
    const row = await userRowById(trx, userId);
    if (row === undefined) throw operatorRefusal('notFound', `no user ${userId}`);
    if (row.status === status) return { userId, status, changed: false };
    await setUserStatus(trx, userId, status, now);
    if (status === 'disabled') {
      await revokeUserSessions(trx, userId, now);
      await revokeOperatorSessionsOf(trx, userId, now);
    }
    await recordAudit(
      trx,
      actor,
      {
        action: status === 'disabled' ? 'user.disable' : 'user.enable',
        targetType: 'user',
        targetId: userId,
        before: { status: row.status },
        after: { status },
        reason,
      },
      now,
    );
    return { userId, status, changed: true };
  });
}

/** Ends every site session of the user (audited with how many were live). */
export async function endUserSessions(db: Kysely<Database>, clock: () => number, actor: AuditActor, userId: number, reason: string) {
  const now = seconds(clock);
  return db.transaction().execute(async (trx) => {
    if ((await userRowById(trx, userId)) === undefined) throw operatorRefusal('notFound', `no user ${userId}`);
    const live = await countLiveSessions(trx, userId, now);
    await revokeUserSessions(trx, userId, now);
    await recordAudit(
      trx,
      actor,
      {
        action: 'user.endSessions',
        targetType: 'user',
        targetId: userId,
        before: { liveSessions: live },
        after: { liveSessions: 0 },
        reason,
      },
      now,
    );
    return { userId, ended: live };
  });
}

/** Sign-ups since `fromAt` (epoch seconds), for the console's dashboard. */
export async function countSignupsSince(db: Executor, fromAt: number): Promise<number> {
  return countUsersSince(db, fromAt);
}
