import { TASK_LINES } from './conversion-rules';
import { nowSeconds, type ConversionDeps } from './conversion.deps';
import { abandonedUploads, markPurged, moveTask, tasksToPurge } from './conversion.repository';
import { deleteTaskFiles } from './conversion.service';
import { sweepFileUploads } from './file-upload.service';

// Decision 0019 retention: uploads and results are deleted CONVERSION_RETENTION_HOURS after a task was
// created (the tool pages say so), and an upload not finished by its deadline is given up. Run
// every SWEEP_INTERVAL_MS by the routes plugin; idempotent, so several API processes may run it.

export const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
const BATCH = 100;

export interface SweepResult {
  /** Tasks whose files were deleted at the end of their retention. */
  purged: number;
  /** Uploads given up at their deadline. */
  abandoned: number;
  /** Uploads of the second upload client deleted. */
  fileUploads: number;
}

export async function sweepConversions(deps: ConversionDeps): Promise<SweepResult> {
  const result: SweepResult = { purged: 0, abandoned: 0, fileUploads: 0 };
  const now = nowSeconds(deps);
  for (;;) {
    const batch = await abandonedUploads(deps.db, now, BATCH);
    for (const task of batch) {
      if (await moveTask(deps.db, task.tasktag, ['uploading'], { status: 'failed', reason: TASK_LINES.uploadTimedOut }, now))
        result.abandoned += 1;
      await deleteTaskFiles(deps, task.tasktag);
    }
    if (batch.length < BATCH) break;
  }
  for (;;) {
    const batch = await tasksToPurge(deps.db, now, BATCH);
    for (const task of batch) {
      await moveTask(deps.db, task.tasktag, ['uploading'], { status: 'failed', reason: TASK_LINES.uploadTimedOut }, now);
      await deleteTaskFiles(deps, task.tasktag);
      await markPurged(deps.db, task.tasktag, now);
      result.purged += 1;
    }
    if (batch.length < BATCH) break;
  }
  result.fileUploads = await sweepFileUploads(deps);
  if (result.purged + result.abandoned + result.fileUploads > 0) deps.log.info({ ...result }, 'conversion retention sweep');
  return result;
}
