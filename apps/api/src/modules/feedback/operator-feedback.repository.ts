import type { Executor } from '@xcad/db';

// The back office's reads of feedback and complaints (decision 0042).

export async function countOpenSubmissions(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('feedback_submission')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('status', 'in', ['new', 'processing'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
