import { describe, expect, it } from 'vitest';
import { canDownload, fileBarOf, filesToRetry, isTaskActive, taskTitleOf } from './progress';
import { initialSnapshot, type FileProgress, type RunSnapshot } from './upload';

describe("a file's bar", () => {
  it('fills with the upload, moves without a value while the server works, and is full when done', () => {
    expect(fileBarOf({ stage: 'pending', sentBytes: 0, size: 100 })).toEqual({ percent: 0, tone: 'idle' });
    expect(fileBarOf({ stage: 'uploading', sentBytes: 37, size: 100 })).toEqual({ percent: 37, tone: 'active' });
    expect(fileBarOf({ stage: 'uploading', sentBytes: 0, size: 0 })).toEqual({ percent: 0, tone: 'active' });
    expect(fileBarOf({ stage: 'waiting', sentBytes: 100, size: 100 })).toEqual({ percent: null, tone: 'active' });
    expect(fileBarOf({ stage: 'converting', sentBytes: 100, size: 100 })).toEqual({ percent: null, tone: 'active' });
    expect(fileBarOf({ stage: 'done', sentBytes: 100, size: 100 })).toEqual({ percent: 100, tone: 'done' });
  });

  it('stops where it was when the file failed or was cancelled', () => {
    expect(fileBarOf({ stage: 'failed', sentBytes: 50, size: 200 })).toEqual({ percent: 25, tone: 'failed' });
    expect(fileBarOf({ stage: 'cancelled', sentBytes: 150, size: 200 })).toEqual({ percent: 75, tone: 'idle' });
  });
});

describe('tasks in the lists', () => {
  const now = 1_760_000_000;

  it('can be downloaded when done and not yet deleted', () => {
    expect(canDownload({ status: 'done', expiretime: now + 1 }, now)).toBe(true);
    expect(canDownload({ status: 'done', expiretime: now }, now)).toBe(false);
    expect(canDownload({ status: 'failed', expiretime: now + 100 }, now)).toBe(false);
  });

  it('are named by their first file and the count of the others', () => {
    const file = (name: string) => ({
      fileindex: 0,
      name,
      size: 1,
      received: [],
      chunks: 1,
      state: 'done' as const,
      reason: null,
      retryable: false,
      summary: null,
      changes: [],
      outputname: null,
      outputsize: null,
    });
    expect(taskTitleOf({ files: [file('a.dwg'), file('b.dwg'), file('c.dwg')] })).toEqual({ first: 'a.dwg', more: 2 });
    expect(taskTitleOf({ files: [file('a.dwg')] })).toEqual({ first: 'a.dwg', more: 0 });
  });

  it('are active while uploading, queued or converting', () => {
    expect(isTaskActive({ status: 'queued' })).toBe(true);
    expect(isTaskActive({ status: 'done' })).toBe(false);
  });
});

describe('重新转换 (decision 0036)', () => {
  const base = initialSnapshot([
    { name: 'a.dxf', size: 1 },
    { name: 'notes.dxf', size: 1 },
    { name: 'big.dwg', size: 1 },
  ]);
  const ended = (phase: RunSnapshot['phase'], files: Partial<FileProgress>[]): RunSnapshot => ({
    ...base,
    phase,
    files: base.files.map((file, index) => ({ ...file, ...files[index] })),
  });

  it('offers only the files a retry can help', () => {
    const snapshot = ended('done', [
      { stage: 'done' },
      { stage: 'failed', reason: '文件类型不正确，请上传DWG或DXF文件', retryable: false },
      { stage: 'failed', reason: '图纸过于复杂，转换超时', retryable: true },
    ]);
    expect(filesToRetry(snapshot).map((file) => file.name)).toEqual(['big.dwg']);
  });

  it("offers nothing when every failure is the file's own, and every unfinished file after a cancel", () => {
    expect(filesToRetry(ended('failed', [{ stage: 'failed' }, { stage: 'failed' }, { stage: 'failed' }]))).toEqual([]);
    const cancelled = ended('cancelled', [{ stage: 'done' }, { stage: 'cancelled' }, { stage: 'cancelled' }]);
    expect(filesToRetry(cancelled).map((file) => file.name)).toEqual(['notes.dxf', 'big.dwg']);
    expect(filesToRetry(null)).toEqual([]);
  });

  it('sends the pictures the drawings were drawn with again with a retried drawing, and never alone', () => {
    const withPicture = ended('done', [{ stage: 'attached' }, { stage: 'done' }, { stage: 'failed', retryable: true }]);
    expect(filesToRetry(withPicture).map((file) => file.name)).toEqual(['a.dxf', 'big.dwg']);
    expect(filesToRetry(ended('done', [{ stage: 'attached' }, { stage: 'done' }, { stage: 'done' }]))).toEqual([]);
    expect(fileBarOf({ stage: 'attached', sentBytes: 1, size: 1 })).toEqual({ percent: 100, tone: 'done' });
  });
});
