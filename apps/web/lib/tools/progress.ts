import type { TTaskDetails } from '@xcad/protocol';
import type { FileProgress, RunSnapshot } from './upload';

// What a file row and a task row show (decision 0019): a bar through the upload, then the queue and
// the conversion, and for the task lists what can still be downloaded and for how long.

export interface FileBar {
  /** 0-100, or null while the server works on it (the bar then moves without a value). */
  readonly percent: number | null;
  readonly tone: 'active' | 'done' | 'failed' | 'idle';
}

export function fileBarOf(file: Pick<FileProgress, 'stage' | 'sentBytes' | 'size'>): FileBar {
  switch (file.stage) {
    case 'pending':
      return { percent: 0, tone: 'idle' };
    case 'uploading':
      return { percent: file.size === 0 ? 0 : Math.min(100, Math.floor((file.sentBytes / file.size) * 100)), tone: 'active' };
    case 'waiting':
    case 'converting':
      return { percent: null, tone: 'active' };
    case 'done':
    case 'attached':
      return { percent: 100, tone: 'done' };
    case 'failed':
    case 'cancelled':
      return {
        percent: file.size === 0 ? 0 : Math.min(100, Math.floor((file.sentBytes / file.size) * 100)),
        tone: file.stage === 'failed' ? 'failed' : 'idle',
      };
  }
}

/** A result can be downloaded while the task is done and not yet deleted. */
export function canDownload(task: Pick<TTaskDetails, 'status' | 'expiretime'>, nowSeconds: number): boolean {
  return task.status === 'done' && task.expiretime > nowSeconds;
}

/** A task by its files: the first name, and how many more there are. */
export function taskTitleOf(task: Pick<TTaskDetails, 'files'>): { first: string; more: number } {
  return { first: task.files[0]?.name ?? '', more: Math.max(0, task.files.length - 1) };
}

/** Tasks still running are asked about again; the lists refresh while one is. */
export function isTaskActive(task: Pick<TTaskDetails, 'status'>): boolean {
  return task.status === 'uploading' || task.status === 'queued' || task.status === 'processing';
}

/**
 * The files 重新转换 sends again (decision 0036): those whose failure a retry can cure (a timeout, a
 * worker that died, the network), and after a cancel every file not converted. Never a wrong type
 * or a broken drawing: it would fail the same way.
 */
export function filesToRetry(snapshot: Pick<RunSnapshot, 'phase' | 'files'> | null): FileProgress[] {
  if (snapshot === null) return [];
  const again = snapshot.files.filter((file) =>
    snapshot.phase === 'cancelled' ? file.stage !== 'done' && file.stage !== 'attached' : file.stage === 'failed' && file.retryable,
  );
  // The pictures the drawings were drawn with go with them again.
  return again.length ? snapshot.files.filter((file) => again.includes(file) || file.stage === 'attached') : [];
}
