import { z } from 'zod';
import { ZSignedIn } from '../auth';
import { defineEndpoint, type Endpoint } from '../endpoint';
import { successOf } from '../envelope';
import type { CodeGroup } from '../errors';
import { INT32_MAX } from '../input';

// Decision 0012: the video course of /video.html (spec §3 "Course lesson": title, lecturer, description,
// duration; 20 lessons). The lessons themselves are public JSON (`GET /api/site/course`); the two
// signed calls read and save a signed-in user's progress. One set of shapes and messages for the
// web and the API. Field names of the signed calls follow spec §7's style (lower case, no
// separators); codes and wording are ours, in a range the spec's catalogue leaves free.

/** spec §6: tutorials (迅捷CAD教程) is product 297; its members may watch every lesson. */
export const COURSE_MEMBER_PRODUCT = 297;

export const COURSE_PATHS = {
  /** The course with its lessons (public, cacheable). */
  course: '/api/site/course',
} as const;

/** Where a lesson's clip is streamed from (free lessons to anyone, member lessons after the check). */
export function lessonVideoPath(lessonId: number): string {
  return `/api/site/course/lessons/${lessonId}/video`;
}

export const COURSE_LIMITS = {
  /** A saved position may run this far past the lesson's duration (players report the end a little late). */
  positionSlackSeconds: 1,
  /** How often a playing lesson's position is saved at most (the web also saves on pause and at the end). */
  saveIntervalSeconds: 8,
} as const;

export const COURSE_MESSAGES = {
  lessonId: '请选择要观看的课程',
  position: '播放进度必须是不小于0的整数秒',
  positionPastEnd: '播放进度超出了本课的时长',
  completed: '完成状态不正确',
} as const;

/** Refusals of the course calls and the video route (codes ours). */
export const COURSE_ERRORS = {
  /** A field broke its rule; `field` names it (decision 0010's 10020). */
  invalidField: { codes: [10020], message: COURSE_MESSAGES.position },
  lessonNotFound: { codes: [15001], message: '课程不存在或已下架' },
  /** A member lesson asked for by someone signed in who is not (or no longer) a tutorials member. */
  membersOnly: { codes: [15002], message: '本课为CAD教程会员专享，开通会员后即可观看全部课程' },
  /** A member lesson's video asked for without a session. */
  signInRequired: { codes: [15003], message: '本课为会员课程，请先登录' },
} as const satisfies Record<string, CodeGroup>;

// ---------------------------------------------------------------------------------------------
// The public course (GET /api/site/course)

export const ZCourseLesson = z.object({
  id: z.number().int().positive(),
  /** 1-based place in the course; the page's `?lesson=` number. */
  position: z.number().int().positive(),
  slug: z.string(),
  title: z.string(),
  lecturer: z.string(),
  lecturerTitle: z.string(),
  description: z.string(),
  /** Whole seconds. */
  duration: z.number().int().nonnegative(),
  isFree: z.boolean(),
  posterUrl: z.string(),
  videoUrl: z.string(),
});
export type TCourseLesson = z.infer<typeof ZCourseLesson>;

export const ZCourseResponse = z.object({
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  /** The membership that unlocks the member lessons. */
  memberProduct: z.number().int(),
  lessons: z.array(ZCourseLesson),
});
export type TCourseResponse = z.infer<typeof ZCourseResponse>;

// ---------------------------------------------------------------------------------------------
// Signed calls

// Form bodies carry numbers as text; JSON bodies as numbers. Either must be a whole number that
// fits the `integer` column a position is kept in.
function wholeNumber(message: string) {
  return z
    .union(
      [
        z.number({ error: message }),
        z
          .string({ error: message })
          .regex(/^\d{1,9}$/, { error: message })
          .transform(Number),
      ],
      { error: message },
    )
    .pipe(z.number({ error: message }).int({ error: message }).min(0, { error: message }).max(INT32_MAX, { error: message }));
}

const ZCompleted = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['0', '1', 'true', 'false'])], { error: COURSE_MESSAGES.completed })
  .transform((value) => value === true || value === 1 || value === '1' || value === 'true');

export const ZCourseProgressRequest = ZSignedIn;

export const ZLessonProgress = z.object({
  lessonid: z.number().int().positive(),
  /** Seconds into the lesson where the user stopped. */
  position: z.number().int().nonnegative(),
  completed: z.boolean(),
  /** Epoch seconds of the last save. */
  updatedat: z.number().int(),
});
export type TLessonProgress = z.infer<typeof ZLessonProgress>;

export const ZCourseProgressResponse = successOf({
  /** Whether the user may watch the member lessons (a tutorials member now). */
  ismember: z.boolean(),
  /** Expiry (epoch seconds) of the tutorials membership, 0 when there is none. */
  memberexpire: z.number().int(),
  progress: z.array(ZLessonProgress),
});
export type TCourseProgressResponse = z.infer<typeof ZCourseProgressResponse>;

export const ZCourseSaveProgressRequest = ZSignedIn.extend({
  lessonid: wholeNumber(COURSE_MESSAGES.lessonId).pipe(z.number().int().positive({ error: COURSE_MESSAGES.lessonId })),
  position: wholeNumber(COURSE_MESSAGES.position),
  completed: ZCompleted.optional(),
});
export type TCourseSaveProgressRequest = z.input<typeof ZCourseSaveProgressRequest>;

export const ZCourseSaveProgressResponse = successOf({ progress: ZLessonProgress });

export const courseEndpoints = {
  courseprogress: defineEndpoint({ path: '/api/v4/courseprogress', request: ZCourseProgressRequest, response: ZCourseProgressResponse }),
  coursesaveprogress: defineEndpoint({
    path: '/api/v4/coursesaveprogress',
    request: ZCourseSaveProgressRequest,
    response: ZCourseSaveProgressResponse,
  }),
} satisfies Record<string, Endpoint>;
