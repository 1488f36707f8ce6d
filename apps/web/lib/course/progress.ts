import type { TLessonProgress } from '@xcad/protocol';

// The rules of /video.html that need no browser (decision 0012): the lesson a URL selects, durations as
// mm:ss, where a lesson resumes, who may play a lesson, and the progress a visitor keeps in
// localStorage when not signed in. Pure functions, unit-tested.

/** Where a user stopped in one lesson. */
export interface ProgressEntry {
  readonly position: number;
  readonly completed: boolean;
  /** Epoch seconds. */
  readonly updatedAt: number;
}

/** Progress by lesson id. */
export type ProgressMap = Readonly<Record<number, ProgressEntry>>;

/** Lesson durations as a player shows them: m:ss under ten minutes is written mm:ss, hours h:mm:ss. */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  if (hours > 0) return `${hours}:${String(minutes).padStart(2, '0')}:${rest}`;
  return `${String(minutes).padStart(2, '0')}:${rest}`;
}

/**
 * The lesson number `?lesson=` asks for: absent is the first; anything but a whole number from 1
 * to `count` is null (the page answers 404).
 */
export function lessonNumberOf(value: string | string[] | undefined, count: number): number | null {
  if (value === undefined) return count > 0 ? 1 : null;
  if (Array.isArray(value) || !/^\d{1,3}$/.test(value)) return null;
  const number = Number(value);
  return number >= 1 && number <= count ? number : null;
}

/** The signed-in user's progress list as a map by lesson. */
export function progressMapOf(list: readonly TLessonProgress[]): ProgressMap {
  const map: Record<number, ProgressEntry> = {};
  for (const item of list) map[item.lessonid] = { position: item.position, completed: item.completed, updatedAt: item.updatedat };
  return map;
}

/** Within this many seconds of either end a lesson starts from the beginning. */
const RESUME_MARGIN_SECONDS = 3;

/**
 * Where playback of a lesson starts: where the user stopped, unless that is (nearly) the start or
 * the end, where starting again from 0 is what someone coming back to a finished lesson wants.
 */
export function resumePositionOf(entry: ProgressEntry | undefined, duration: number): number {
  if (entry === undefined) return 0;
  if (entry.position < RESUME_MARGIN_SECONDS || entry.position >= duration - RESUME_MARGIN_SECONDS) return 0;
  return entry.position;
}

/** Share of a lesson watched, 0..1 (a completed lesson is whole). */
export function watchedShareOf(entry: ProgressEntry | undefined, duration: number): number {
  if (entry === undefined) return 0;
  if (entry.completed) return 1;
  if (duration <= 0) return 0;
  return Math.min(1, Math.max(0, entry.position / duration));
}

/** A newer position, keeping a lesson completed once it was. */
export function mergeProgress(previous: ProgressEntry | undefined, next: ProgressEntry): ProgressEntry {
  return { ...next, completed: next.completed || previous?.completed === true };
}

export type LessonAccess = 'play' | 'checking' | 'signIn' | 'buy';

/**
 * What the player does with a lesson: free lessons play for anyone; member lessons need a
 * signed-in tutorials member ('checking' while the membership answer is on its way).
 */
export function lessonAccessOf(isFree: boolean, session: 'unknown' | 'signedOut' | 'signedIn', isMember: boolean | null): LessonAccess {
  if (isFree) return 'play';
  if (session === 'signedOut') return 'signIn';
  if (session === 'unknown' || isMember === null) return 'checking';
  return isMember ? 'play' : 'buy';
}

/** Whether a playing lesson's position is due to be saved (throttle of `intervalSeconds`). */
export function isSaveDue(lastSavedAtMs: number | null, nowMs: number, intervalSeconds: number): boolean {
  return lastSavedAtMs === null || nowMs - lastSavedAtMs >= intervalSeconds * 1000;
}

export function completedCountOf(map: ProgressMap, lessonIds: readonly number[]): number {
  return lessonIds.filter((id) => map[id]?.completed === true).length;
}

// ---------------------------------------------------------------------------------------------
// A visitor's progress in localStorage

export const LOCAL_PROGRESS_KEY = 'xcad_course_progress';

/** Keeps the stored record small: a visitor's record never holds more than this many lessons. */
const LOCAL_PROGRESS_MAX_LESSONS = 200;

function isEntry(value: unknown): value is ProgressEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.position === 'number' &&
    Number.isInteger(entry.position) &&
    entry.position >= 0 &&
    typeof entry.completed === 'boolean' &&
    typeof entry.updatedAt === 'number' &&
    Number.isFinite(entry.updatedAt)
  );
}

/** The visitor's stored progress; whatever is unreadable or malformed is ignored. */
export function readLocalProgress(storage: Pick<Storage, 'getItem'> | null): ProgressMap {
  if (storage === null) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(storage.getItem(LOCAL_PROGRESS_KEY) ?? '{}');
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  const map: Record<number, ProgressEntry> = {};
  for (const [key, value] of Object.entries(parsed)) {
    const id = Number(key);
    if (/^\d{1,9}$/.test(key) && id > 0 && isEntry(value))
      map[id] = { position: value.position, completed: value.completed, updatedAt: value.updatedAt };
  }
  return map;
}

/** Stores one lesson's progress for a visitor and answers the new map (storage errors are ignored). */
export function writeLocalProgress(
  storage: Pick<Storage, 'getItem' | 'setItem'> | null,
  lessonId: number,
  entry: ProgressEntry,
): ProgressMap {
  const current = readLocalProgress(storage);
  const next: Record<number, ProgressEntry> = { ...current, [lessonId]: mergeProgress(current[lessonId], entry) };
  const ids = Object.keys(next)
    .map(Number)
    .sort((a, b) => (next[b]?.updatedAt ?? 0) - (next[a]?.updatedAt ?? 0));
  for (const id of ids.slice(LOCAL_PROGRESS_MAX_LESSONS)) delete next[id];
  try {
    storage?.setItem(LOCAL_PROGRESS_KEY, JSON.stringify(next));
  } catch {
    // Private mode or a full quota: the progress lives on in the page for this visit.
  }
  return next;
}
