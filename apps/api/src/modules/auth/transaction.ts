import type { Kysely, Transaction } from 'kysely';
import type { Database } from '@xcad/db';
import { ApiError } from '@xcad/protocol';

/**
 * Runs `work` in a transaction. A refusal (ApiError) commits what was written before it, because
 * a refusal's own bookkeeping must stick: the counted wrong code, the lock it triggered, the
 * captcha a wrong guess used up. Any other error rolls everything back.
 */
export async function transact<T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  const trx = await db.startTransaction().execute();
  try {
    const value = await work(trx);
    await trx.commit().execute();
    return value;
  } catch (error) {
    if (error instanceof ApiError) {
      await trx.commit().execute();
    } else {
      // The original error says what went wrong; a failed rollback would only hide it.
      await trx
        .rollback()
        .execute()
        .catch(() => undefined);
    }
    throw error;
  }
}
