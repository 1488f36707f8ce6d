import type { CourseLesson } from '@xcad/db';
import {
  ApiError,
  COURSE_ERRORS,
  COURSE_LIMITS,
  COURSE_MEMBER_PRODUCT,
  COURSE_MESSAGES,
  lessonVideoPath,
  type TCourseLesson,
  type TCourseResponse,
  type TLessonProgress,
} from '@xcad/protocol';
import type { StoredObject } from '../../storage';
import { resolveSignedIn, type SignedIn } from '../auth/session.service';
import type { SiteDeps } from '../site-deps';
import {
  findCourse,
  findLesson,
  listLessons,
  listProgress,
  membershipExpiryOf,
  upsertProgress,
  type ProgressRow,
} from './course.repository';

// The rules of the video course (decision 0012): who may watch which lesson, and each signed-in user's
// progress. Free lessons are anyone's; member lessons need a tutorials membership (product 297)
// that has not expired. A user saves progress only in lessons they may watch.

const nowOf = (deps: SiteDeps): number => Math.floor(deps.clock() / 1000);

function lessonOf(row: CourseLesson): TCourseLesson {
  const id = Number(row.id);
  return {
    id,
    position: row.position,
    slug: row.slug,
    title: row.title,
    lecturer: row.lecturer,
    lecturerTitle: row.lecturer_title,
    description: row.description,
    duration: row.duration_seconds,
    isFree: row.is_free === 1,
    posterUrl: row.poster_path,
    videoUrl: lessonVideoPath(id),
  };
}

function progressOf(row: ProgressRow): TLessonProgress {
  return {
    lessonid: Number(row.lesson_id),
    position: row.position_seconds,
    completed: Number(row.completed) === 1,
    updatedat: Number(row.updated_at),
  };
}

function lessonNotFound(id: number, httpStatus?: number): ApiError {
  const { codes, message } = COURSE_ERRORS.lessonNotFound;
  return new ApiError({ code: codes[0], userMessage: message, logMessage: `no lesson ${id}`, httpStatus });
}

/** The course and its lessons, in course order (public: no storage keys). */
export async function courseWithLessons(deps: SiteDeps): Promise<TCourseResponse | undefined> {
  const course = await findCourse(deps.db);
  if (course === undefined) return undefined;
  const lessons = await listLessons(deps.db, course.slug);
  return {
    slug: course.slug,
    title: course.title,
    description: course.description,
    memberProduct: COURSE_MEMBER_PRODUCT,
    lessons: lessons.map(lessonOf),
  };
}

async function tutorialsExpiryOf(deps: SiteDeps, userId: number): Promise<number> {
  return membershipExpiryOf(deps.db, userId, COURSE_MEMBER_PRODUCT);
}

export interface LessonVideo {
  key: string;
  /** Member clips must not be kept by shared caches. */
  cacheControl: string;
}

/**
 * The clip of lesson `id` for whoever holds `usertoken` (the session cookie): free lessons to
 * anyone; member lessons to a signed-in tutorials member (401 without a session, 403 otherwise).
 */
export async function lessonVideoFor(deps: SiteDeps, id: number, usertoken: string | undefined): Promise<LessonVideo> {
  const lesson = await findLesson(deps.db, id);
  if (lesson === undefined) throw lessonNotFound(id, 404);
  if (lesson.is_free === 1) return { key: lesson.video_key, cacheControl: 'public, max-age=86400' };

  const now = nowOf(deps);
  let userId: number;
  try {
    userId = (await resolveSignedIn(deps.db, { usertoken }, now)).user.id;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const { codes, message } = COURSE_ERRORS.signInRequired;
    throw new ApiError({
      code: codes[0],
      userMessage: message,
      httpStatus: 401,
      logMessage: `member lesson ${id} without a session: ${error.logMessage}`,
    });
  }
  if ((await tutorialsExpiryOf(deps, userId)) <= now) {
    const { codes, message } = COURSE_ERRORS.membersOnly;
    throw new ApiError({
      code: codes[0],
      userMessage: message,
      httpStatus: 403,
      logMessage: `member lesson ${id} for non-member ${userId}`,
    });
  }
  return { key: lesson.video_key, cacheControl: 'private, no-store' };
}

/** The stored clip, or a 404 when the lesson's file is missing from storage. */
export async function storedLessonVideo(deps: SiteDeps, id: number, video: LessonVideo): Promise<StoredObject> {
  const object = await deps.storage.stat(video.key);
  if (object !== undefined) return object;
  deps.log.warn({ lesson: id, key: video.key }, 'a course clip is missing from storage; run npm run content:import');
  throw lessonNotFound(id, 404);
}

export interface CourseProgress {
  ismember: boolean;
  memberexpire: number;
  progress: TLessonProgress[];
}

/** spec §7-style signed call: the user's progress in every lesson and whether they may watch member lessons. */
export async function courseProgressOf(deps: SiteDeps, { user }: SignedIn): Promise<CourseProgress> {
  const now = nowOf(deps);
  const [expiry, rows] = await Promise.all([tutorialsExpiryOf(deps, user.id), listProgress(deps.db, user.id)]);
  return { ismember: expiry > now, memberexpire: expiry, progress: rows.map(progressOf) };
}

export interface SaveProgressFields {
  lessonid: number;
  position: number;
  completed?: boolean | undefined;
}

/** Saves where the user stopped in a lesson they may watch; a completed lesson stays completed. */
export async function saveCourseProgress(deps: SiteDeps, { user }: SignedIn, fields: SaveProgressFields): Promise<TLessonProgress> {
  const now = nowOf(deps);
  const lesson = await findLesson(deps.db, fields.lessonid);
  if (lesson === undefined) throw ApiError.business(COURSE_ERRORS.lessonNotFound, `progress for unknown lesson ${fields.lessonid}`);
  if (lesson.is_free !== 1 && (await tutorialsExpiryOf(deps, user.id)) <= now) {
    throw ApiError.business(COURSE_ERRORS.membersOnly, `progress in member lesson ${lesson.id} by non-member ${user.id}`);
  }
  if (fields.position > lesson.duration_seconds + COURSE_LIMITS.positionSlackSeconds) {
    throw new ApiError({
      code: COURSE_ERRORS.invalidField.codes[0],
      userMessage: COURSE_MESSAGES.positionPastEnd,
      logMessage: `position ${fields.position} past the end (${lesson.duration_seconds} s) of lesson ${lesson.id}`,
      extra: { field: 'position' },
    });
  }
  const row = await upsertProgress(deps.db, {
    userId: user.id,
    lessonId: Number(lesson.id),
    position: fields.position,
    completed: fields.completed === true,
    now,
  });
  return progressOf(row);
}
