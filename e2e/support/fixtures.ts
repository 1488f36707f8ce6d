import { hash } from '@node-rs/argon2';
import { createDatabase } from '@xcad/db';

// Accounts the browser tests start from, written straight into the throwaway database before the
// servers start (as a real operator's data would be there): a test that needs an SMS to an
// existing account cannot first register it through SMS, since one phone gets one SMS a minute.

export const FIXTURE_PASSWORD = 'fixture88';

/** Phones of accounts that exist with FIXTURE_PASSWORD; each test takes its own. */
export const FIXTURE_PHONES = {
  forgotPassword: '13700000001',
  mobileLogin: '13700000002',
  /** A member of every product of spec §6 for a year (drawing library 203, tutorials 297, ...). */
  member: '13700000003',
  /** Signed in but a member of nothing. */
  ordinary: '13700000004',
} as const;

const MEMBER_PRODUCT_IDS = [211, 214, 202, 297, 204, 203] as const;
const YEAR_SECONDS = 365 * 24 * 3600;

export async function seedFixtureAccounts(sqlitePath: string): Promise<void> {
  const { db, destroy } = createDatabase({ sqlitePath });
  try {
    const passwordHash = await hash(FIXTURE_PASSWORD);
    const now = Math.floor(Date.now() / 1000);
    await db
      .insertInto('app_user')
      .values(
        Object.values(FIXTURE_PHONES).map((phone) => ({
          username: phone,
          mobile: phone,
          email: null,
          nickname: `${phone.slice(0, 3)}****${phone.slice(-4)}`,
          password_hash: passwordHash,
          created_at: now,
          updated_at: now,
        })),
      )
      .onConflict((conflict) => conflict.column('username').doNothing())
      .execute();
    const member = await db.selectFrom('app_user').select('id').where('username', '=', FIXTURE_PHONES.member).executeTakeFirstOrThrow();
    await db
      .insertInto('membership')
      .values(
        MEMBER_PRODUCT_IDS.map((productId) => ({
          user_id: member.id,
          product_id: productId,
          auth_value: now + YEAR_SECONDS,
          updated_at: now,
        })),
      )
      .onConflict((conflict) => conflict.columns(['user_id', 'product_id']).doNothing())
      .execute();
  } finally {
    await destroy();
  }
}
