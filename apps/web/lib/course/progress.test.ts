import { describe, expect, it } from 'vitest';
import {
  completedCountOf,
  formatDuration,
  isSaveDue,
  lessonAccessOf,
  lessonNumberOf,
  LOCAL_PROGRESS_KEY,
  mergeProgress,
  progressMapOf,
  readLocalProgress,
  resumePositionOf,
  watchedShareOf,
  writeLocalProgress,
} from './progress';

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    items,
  };
}

describe('formatDuration', () => {
  it('writes lesson lengths as mm:ss and longer ones with hours', () => {
    expect(formatDuration(0)).toBe('00:00');
    expect(formatDuration(19)).toBe('00:19');
    expect(formatDuration(83.7)).toBe('01:23');
    expect(formatDuration(600)).toBe('10:00');
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(formatDuration(-4)).toBe('00:00');
  });
});

describe('lessonNumberOf', () => {
  it('selects the first lesson without ?lesson= and refuses what is not a lesson of the course', () => {
    expect(lessonNumberOf(undefined, 20)).toBe(1);
    expect(lessonNumberOf('5', 20)).toBe(5);
    expect(lessonNumberOf('20', 20)).toBe(20);
    for (const bad of ['0', '21', '-1', '1.5', 'abc', '', '05x', '1000']) expect(lessonNumberOf(bad, 20), bad).toBeNull();
    expect(lessonNumberOf(['1', '2'], 20)).toBeNull();
    expect(lessonNumberOf(undefined, 0)).toBeNull();
  });
});

describe('resuming and watched share', () => {
  it('resumes where the user stopped, but from the start near either end', () => {
    expect(resumePositionOf(undefined, 20)).toBe(0);
    expect(resumePositionOf({ position: 11, completed: false, updatedAt: 1 }, 20)).toBe(11);
    expect(resumePositionOf({ position: 2, completed: false, updatedAt: 1 }, 20)).toBe(0);
    expect(resumePositionOf({ position: 18, completed: false, updatedAt: 1 }, 20)).toBe(0);
    expect(resumePositionOf({ position: 9, completed: true, updatedAt: 1 }, 20)).toBe(9);
  });

  it('counts a completed lesson as whole and clamps the rest', () => {
    expect(watchedShareOf(undefined, 20)).toBe(0);
    expect(watchedShareOf({ position: 5, completed: false, updatedAt: 1 }, 20)).toBe(0.25);
    expect(watchedShareOf({ position: 3, completed: true, updatedAt: 1 }, 20)).toBe(1);
    expect(watchedShareOf({ position: 25, completed: false, updatedAt: 1 }, 20)).toBe(1);
    expect(watchedShareOf({ position: 5, completed: false, updatedAt: 1 }, 0)).toBe(0);
  });

  it('keeps a lesson completed when it is watched again', () => {
    expect(mergeProgress({ position: 20, completed: true, updatedAt: 1 }, { position: 4, completed: false, updatedAt: 2 })).toEqual({
      position: 4,
      completed: true,
      updatedAt: 2,
    });
    expect(mergeProgress(undefined, { position: 4, completed: false, updatedAt: 2 }).completed).toBe(false);
  });

  it('maps the API list by lesson and counts completed lessons', () => {
    const map = progressMapOf([
      { lessonid: 1, position: 21, completed: true, updatedat: 100 },
      { lessonid: 4, position: 7, completed: false, updatedat: 90 },
    ]);
    expect(map[4]).toEqual({ position: 7, completed: false, updatedAt: 90 });
    expect(completedCountOf(map, [1, 2, 3, 4])).toBe(1);
  });
});

describe('lessonAccessOf', () => {
  it('plays free lessons for anyone and member lessons for members only', () => {
    expect(lessonAccessOf(true, 'signedOut', null)).toBe('play');
    expect(lessonAccessOf(false, 'signedOut', null)).toBe('signIn');
    expect(lessonAccessOf(false, 'unknown', null)).toBe('checking');
    expect(lessonAccessOf(false, 'signedIn', null)).toBe('checking');
    expect(lessonAccessOf(false, 'signedIn', false)).toBe('buy');
    expect(lessonAccessOf(false, 'signedIn', true)).toBe('play');
  });
});

describe('isSaveDue', () => {
  it('saves at once the first time, then at most every interval', () => {
    expect(isSaveDue(null, 1_000, 8)).toBe(true);
    expect(isSaveDue(1_000, 8_999, 8)).toBe(false);
    expect(isSaveDue(1_000, 9_000, 8)).toBe(true);
  });
});

describe('a visitor’s progress in localStorage', () => {
  it('writes, reads back and merges entries, keeping completed lessons completed', () => {
    const storage = memoryStorage();
    writeLocalProgress(storage, 2, { position: 20, completed: true, updatedAt: 10 });
    const map = writeLocalProgress(storage, 2, { position: 6, completed: false, updatedAt: 20 });
    expect(map[2]).toEqual({ position: 6, completed: true, updatedAt: 20 });
    expect(readLocalProgress(storage)).toEqual({ 2: { position: 6, completed: true, updatedAt: 20 } });
  });

  it('ignores unreadable records and malformed entries', () => {
    expect(readLocalProgress(null)).toEqual({});
    expect(readLocalProgress(memoryStorage({ [LOCAL_PROGRESS_KEY]: '{not json' }))).toEqual({});
    expect(readLocalProgress(memoryStorage({ [LOCAL_PROGRESS_KEY]: '[1,2]' }))).toEqual({});
    const mixed = JSON.stringify({
      1: { position: 5, completed: false, updatedAt: 3 },
      2: { position: -1, completed: false, updatedAt: 3 },
      3: { position: 4, completed: 'yes', updatedAt: 3 },
      abc: { position: 4, completed: false, updatedAt: 3 },
    });
    expect(readLocalProgress(memoryStorage({ [LOCAL_PROGRESS_KEY]: mixed }))).toEqual({
      1: { position: 5, completed: false, updatedAt: 3 },
    });
  });

  it('survives a storage that refuses writes', () => {
    const refusing = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(writeLocalProgress(refusing, 1, { position: 3, completed: false, updatedAt: 1 })).toEqual({
      1: { position: 3, completed: false, updatedAt: 1 },
    });
  });
});
