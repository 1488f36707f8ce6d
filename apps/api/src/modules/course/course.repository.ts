import type { CourseLesson, Executor, NewCourseLesson } from '@xcad/db';
import { sql } from 'kysely';

// All SQL of the video course (decision 0012): the course and its lessons, each user's progress, and
// the one read of another domain's table it needs, the tutorials membership's expiry.

export interface CourseRow {
  slug: string;
  title: string;
  description: string;
  source_hash: string;
}

/** The course the site shows (there is one; the first by slug should more be authored). */
export async function findCourse(db: Executor): Promise<CourseRow | undefined> {
  return db.selectFrom('course').select(['slug', 'title', 'description', 'source_hash']).orderBy('slug').limit(1).executeTakeFirst();
}

export async function listCourses(db: Executor): Promise<CourseRow[]> {
  return db.selectFrom('course').select(['slug', 'title', 'description', 'source_hash']).execute();
}

export async function listLessons(db: Executor, courseSlug: string): Promise<CourseLesson[]> {
  return db.selectFrom('course_lesson').selectAll().where('course_slug', '=', courseSlug).orderBy('position').execute();
}

export async function listAllLessons(db: Executor): Promise<CourseLesson[]> {
  return db.selectFrom('course_lesson').selectAll().orderBy('id').execute();
}

export async function findLesson(db: Executor, id: number): Promise<CourseLesson | undefined> {
  return db.selectFrom('course_lesson').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Expiry (epoch seconds) of `userId`'s membership of `productId`, 0 when there is none. */
export async function membershipExpiryOf(db: Executor, userId: number, productId: number): Promise<number> {
  const row = await db
    .selectFrom('membership')
    .select('auth_value')
    .where('user_id', '=', userId)
    .where('product_id', '=', productId)
    .executeTakeFirst();
  return row === undefined ? 0 : Number(row.auth_value);
}

export interface ProgressRow {
  lesson_id: number;
  position_seconds: number;
  completed: number;
  updated_at: number;
}

export async function listProgress(db: Executor, userId: number): Promise<ProgressRow[]> {
  return db
    .selectFrom('course_progress')
    .select(['lesson_id', 'position_seconds', 'completed', 'updated_at'])
    .where('user_id', '=', userId)
    .orderBy('lesson_id')
    .execute();
}

/**
 * Saves where `userId` stopped in a lesson. A lesson once completed stays completed (watching it
 * again moves the position, not the tick).
 */
export async function upsertProgress(
  db: Executor,
  progress: { userId: number; lessonId: number; position: number; completed: boolean; now: number },
): Promise<ProgressRow> {
  return db
    .insertInto('course_progress')
    .values({
      user_id: progress.userId,
      lesson_id: progress.lessonId,
      position_seconds: progress.position,
      completed: progress.completed ? 1 : 0,
      updated_at: progress.now,
    })
    .onConflict((conflict) =>
      conflict.columns(['user_id', 'lesson_id']).doUpdateSet({
        position_seconds: (eb) => eb.ref('excluded.position_seconds'),
        completed: sql<0 | 1>`case when course_progress.completed = 1 then 1 else excluded.completed end`,
        updated_at: (eb) => eb.ref('excluded.updated_at'),
      }),
    )
    .returning(['lesson_id', 'position_seconds', 'completed', 'updated_at'])
    .executeTakeFirstOrThrow();
}

// ---------------------------------------------------------------------------------------------
// Writes of the importer

export async function insertCourse(db: Executor, course: CourseRow, now: number): Promise<void> {
  await db
    .insertInto('course')
    .values({ ...course, updated_at: now })
    .execute();
}

export async function updateCourse(db: Executor, course: CourseRow, now: number): Promise<void> {
  await db
    .updateTable('course')
    .set({ title: course.title, description: course.description, source_hash: course.source_hash, updated_at: now })
    .where('slug', '=', course.slug)
    .execute();
}

/** Deletes courses not in `keep` (their lessons and everyone's progress in them go too). */
export async function deleteCoursesExcept(db: Executor, keep: readonly string[]): Promise<number> {
  const result = await db
    .deleteFrom('course_lesson')
    .where('course_slug', 'not in', keep.length > 0 ? [...keep] : [''])
    .executeTakeFirst();
  await db
    .deleteFrom('course')
    .where('slug', 'not in', keep.length > 0 ? [...keep] : [''])
    .execute();
  return Number(result.numDeletedRows);
}

/** Deletes lessons whose ids are not in `keep` (progress in them goes too). */
export async function deleteLessonsExcept(db: Executor, keep: readonly number[]): Promise<number> {
  const result = await db
    .deleteFrom('course_lesson')
    .where('id', 'not in', keep.length > 0 ? [...keep] : [-1])
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Moves lessons out of the way of a reordering: (course, position) is unique. */
export async function parkLessons(db: Executor, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('course_lesson')
    .set({ position: sql<number>`-id` })
    .where('id', 'in', [...ids])
    .execute();
}

export async function insertLesson(db: Executor, lesson: NewCourseLesson): Promise<void> {
  await db.insertInto('course_lesson').values(lesson).execute();
}

export async function updateLesson(db: Executor, lesson: NewCourseLesson): Promise<void> {
  const { id, ...fields } = lesson;
  await db.updateTable('course_lesson').set(fields).where('id', '=', id).execute();
}
