import type { Generated, Insertable, Selectable } from 'kysely';

// Decision 0012: the tables of the video course lessons and each user's progress (migration 2026-11-22T0200_course).
// Epochs are seconds; flags are 0/1.

export interface CourseTable {
  slug: string;
  title: string;
  description: string;
  /** SHA-256 of the course's authored fields: an unchanged course is not written again. */
  source_hash: string;
  updated_at: number;
}

export interface CourseLessonTable {
  /** The authored id (content/course/lessons.yml): the video URL /api/site/course/lessons/{id}/video. */
  id: number;
  course_slug: string;
  /** 1-based place in the course. */
  position: number;
  slug: string;
  title: string;
  lecturer: string;
  lecturer_title: string;
  description: string;
  duration_seconds: number;
  /** 1: anyone may watch; 0: tutorials members (product 297) only. */
  is_free: 0 | 1;
  /** Storage key of the clip: `content/media/course/…` (free) or `private/course/…` (members). */
  video_key: string;
  /** Public path of the poster image, `/content/media/course/<slug>.jpg`. */
  poster_path: string;
  /** SHA-256 of the lesson's fields and its clip's bytes. */
  source_hash: string;
  updated_at: number;
}

export interface CourseProgressTable {
  user_id: number;
  lesson_id: number;
  position_seconds: number;
  completed: Generated<0 | 1>;
  updated_at: number;
}

export interface CourseTables {
  course: CourseTable;
  course_lesson: CourseLessonTable;
  course_progress: CourseProgressTable;
}

export type CourseLesson = Selectable<CourseLessonTable>;
export type NewCourseLesson = Insertable<CourseLessonTable>;
export type CourseProgress = Selectable<CourseProgressTable>;
