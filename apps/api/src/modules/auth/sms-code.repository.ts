import type { Executor, SmsCode, SmsPurpose } from '@xcad/db';

export interface NewSmsCode {
  phone: string;
  purpose: SmsPurpose;
  codeHash: string;
  createdAt: number;
  expiresAt: number;
}

export async function insertSmsCode(db: Executor, code: NewSmsCode): Promise<number> {
  const row = await db
    .insertInto('sms_code')
    .values({ phone: code.phone, purpose: code.purpose, code_hash: code.codeHash, created_at: code.createdAt, expires_at: code.expiresAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The newest code sent to `phone` for `purpose`, used or not. */
export async function latestSmsCode(db: Executor, phone: string, purpose: SmsPurpose): Promise<SmsCode | undefined> {
  return db
    .selectFrom('sms_code')
    .selectAll()
    .where('phone', '=', phone)
    .where('purpose', '=', purpose)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function addSmsCodeAttempt(db: Executor, id: number): Promise<void> {
  await db
    .updateTable('sms_code')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

/** Marks the code used; false when it already was (a parallel request took it). */
export async function markSmsCodeUsed(db: Executor, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('sms_code')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteSmsCode(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('sms_code').where('id', '=', id).execute();
}

/** Deletes codes that expired at or before `before`. */
export async function purgeSmsCodes(db: Executor, before: number): Promise<number> {
  const result = await db.deleteFrom('sms_code').where('expires_at', '<=', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
