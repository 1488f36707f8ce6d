import type { Executor } from '@xcad/db';

/** Stores the device's captcha answer, replacing any earlier one (one captcha per device). */
export async function saveCaptcha(db: Executor, deviceId: string, codeHash: string, expiresAt: number): Promise<void> {
  await db
    .insertInto('captcha')
    .values({ device_id: deviceId, code_hash: codeHash, expires_at: expiresAt })
    .onConflict((conflict) => conflict.column('device_id').doUpdateSet({ code_hash: codeHash, expires_at: expiresAt }))
    .execute();
}

/** Removes the device's captcha and answers it; a captcha is good for one check only. */
export async function takeCaptcha(db: Executor, deviceId: string): Promise<{ code_hash: string; expires_at: number } | undefined> {
  return db.deleteFrom('captcha').where('device_id', '=', deviceId).returning(['code_hash', 'expires_at']).executeTakeFirst();
}

export async function purgeCaptchas(db: Executor, now: number): Promise<number> {
  const result = await db.deleteFrom('captcha').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
