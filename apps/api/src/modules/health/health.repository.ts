import { sql } from 'kysely';
import type { Executor } from '@xcad/db';

/** True when the database answers a trivial query within `timeoutMs`. */
export async function isDatabaseReachable(db: Executor, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([sql`select 1`.execute(db).then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
