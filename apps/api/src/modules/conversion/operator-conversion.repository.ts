import type { Executor } from '@xcad/db';

// The back office's reads of the conversion tasks (decision 0042).

export async function tasksSince(db: Executor, fromAt: number): Promise<{ tasks: number; failed: number }> {
  const rows = await db
    .selectFrom('conversion_task')
    .select((eb) => ['status', eb.fn.countAll<string | number>().as('n')])
    .where('created_at', '>=', fromAt)
    .groupBy('status')
    .execute();
  let tasks = 0;
  let failed = 0;
  for (const row of rows) {
    // A task still being uploaded is not yet a conversion.
    if (row.status === 'uploading') continue;
    tasks += Number(row.n);
    if (row.status === 'failed') failed += Number(row.n);
  }
  return { tasks, failed };
}

export async function countTasksIn(db: Executor, status: 'queued' | 'processing'): Promise<number> {
  const row = await db
    .selectFrom('conversion_task')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('status', '=', status)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
