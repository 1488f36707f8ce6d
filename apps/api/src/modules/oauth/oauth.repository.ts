import type { Executor, IdentityProvider, LoginSession, LoginSessionState } from '@xcad/db';

// The SQL of QR and popup sign-ins (table login_session). Every state change is one conditional
// UPDATE, so concurrent callbacks and pollers cannot both move the same session.

export interface NewLoginSession {
  logintag: string;
  provider: IdentityProvider;
  oauthState: string;
  deviceId: string;
  /** Epoch seconds. */
  createdAt: number;
  expiresAt: number;
}

export async function insertLoginSession(db: Executor, session: NewLoginSession): Promise<void> {
  await db
    .insertInto('login_session')
    .values({
      logintag: session.logintag,
      provider: session.provider,
      state: 'pending',
      oauth_state: session.oauthState,
      user_id: null,
      device_id: session.deviceId,
      created_at: session.createdAt,
      expires_at: session.expiresAt,
    })
    .execute();
}

export async function findLoginSession(db: Executor, logintag: string): Promise<LoginSession | undefined> {
  return db.selectFrom('login_session').selectAll().where('logintag', '=', logintag).executeTakeFirst();
}

/** The session a provider callback belongs to, found by the `state` it carries back. */
export async function findLoginSessionByOauthState(
  db: Executor,
  provider: IdentityProvider,
  oauthState: string,
): Promise<LoginSession | undefined> {
  return db
    .selectFrom('login_session')
    .selectAll()
    .where('provider', '=', provider)
    .where('oauth_state', '=', oauthState)
    .executeTakeFirst();
}

export interface LoginSessionMove {
  logintag: string;
  from: readonly LoginSessionState[];
  to: LoginSessionState;
  /** Set with the move to 'confirmed' or 'illegal'. */
  userId?: number;
  /** Epoch seconds; an expired session does not move. */
  now: number;
}

/** Moves the session when it is still in one of `from` and unexpired; true when this call moved it. */
export async function moveLoginSession(db: Executor, move: LoginSessionMove): Promise<boolean> {
  const result = await db
    .updateTable('login_session')
    .set(move.userId === undefined ? { state: move.to } : { state: move.to, user_id: move.userId })
    .where('logintag', '=', move.logintag)
    .where('state', 'in', [...move.from])
    .where('expires_at', '>', move.now)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Forgets sessions that expired before `before` (epoch seconds); answers how many. */
export async function deleteLoginSessionsExpiredBefore(db: Executor, before: number): Promise<number> {
  const result = await db.deleteFrom('login_session').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
