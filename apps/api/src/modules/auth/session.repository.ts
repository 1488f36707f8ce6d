import type { Executor } from '@xcad/db';

export interface NewSession {
  userId: number;
  tokenHash: string;
  fileTokenHash: string;
  deviceId: string;
  ip: string;
  createdAt: number;
  expiresAt: number;
}

export interface SessionRow {
  id: number;
  user_id: number;
  expires_at: number;
  revoked_at: number | null;
}

export async function insertSession(db: Executor, session: NewSession): Promise<number> {
  const row = await db
    .insertInto('user_session')
    .values({
      user_id: session.userId,
      token_hash: session.tokenHash,
      file_token_hash: session.fileTokenHash,
      device_id: session.deviceId,
      ip: session.ip,
      created_at: session.createdAt,
      expires_at: session.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** One lookup on the unique token_hash index. */
export async function findSessionByTokenHash(db: Executor, tokenHash: string): Promise<SessionRow | undefined> {
  return db
    .selectFrom('user_session')
    .select(['id', 'user_id', 'expires_at', 'revoked_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function revokeSessionByTokenHash(db: Executor, tokenHash: string, now: number): Promise<void> {
  await db
    .updateTable('user_session')
    .set({ revoked_at: now })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeUserSessions(db: Executor, userId: number, now: number): Promise<void> {
  await db.updateTable('user_session').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}
