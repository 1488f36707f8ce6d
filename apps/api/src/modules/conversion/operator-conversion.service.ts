import type { Executor } from '@xcad/db';
import { countTasksIn, tasksSince } from './operator-conversion.repository';

// The back office's figures of online conversion (decision 0042): tasks created since a time and how
// many failed, and the queue's depth now.

export async function conversionFigures(db: Executor, fromAt: number): Promise<{ tasks: number; failed: number }> {
  return tasksSince(db, fromAt);
}

export async function queueFigures(db: Executor): Promise<{ queued: number; processing: number }> {
  const [queued, processing] = await Promise.all([countTasksIn(db, 'queued'), countTasksIn(db, 'processing')]);
  return { queued, processing };
}
