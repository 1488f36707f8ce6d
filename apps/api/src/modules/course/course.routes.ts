import type { FastifyPluginAsync } from 'fastify';
import { ApiError, COURSE_ERRORS, COURSE_PATHS, endpoints, SUCCESS_CODE } from '@xcad/protocol';
import { route } from '../../plugins/route';
import { sendStored } from '../../storage';
import type { SiteRoutesOptions } from '../site-deps';
import { courseProgressOf, courseWithLessons, lessonVideoFor, saveCourseProgress, storedLessonVideo } from './course.service';

// The video course (spec §3 "Course lesson", /video.html): the public lesson list, each lesson's clip (Range
// requests for seeking; member clips only after the membership check), and the two signed calls
// that read and save a user's progress. Routes do HTTP only.

const LESSON_ID = /^\d{1,9}$/;

export const courseRoutes: FastifyPluginAsync<SiteRoutesOptions> = async (app, { deps }) => {
  app.get(COURSE_PATHS.course, async (_request, reply) => {
    const course = await courseWithLessons(deps);
    if (course === undefined) {
      const { codes, message } = COURSE_ERRORS.lessonNotFound;
      throw new ApiError({ code: codes[0], userMessage: message, httpStatus: 404, logMessage: 'no course has been imported' });
    }
    // Lessons change only with an import; a minute keeps proxies and the page fetches cheap.
    reply.header('cache-control', 'public, max-age=60');
    return course;
  });

  // GET (and HEAD, which Fastify adds) with Range support through sendStored.
  app.get('/api/site/course/lessons/:id/video', async (request, reply) => {
    const raw = (request.params as { id: string }).id;
    if (!LESSON_ID.test(raw)) {
      const { codes, message } = COURSE_ERRORS.lessonNotFound;
      throw new ApiError({ code: codes[0], userMessage: message, httpStatus: 404, logMessage: `bad lesson id ${raw}` });
    }
    const id = Number(raw);
    // Until the lesson is known to be free, the answer depends on who asks: a refusal must not be
    // kept by any cache, and a member clip only by the member's own browser.
    reply.header('cache-control', 'private, no-store').header('vary', 'Cookie');
    const video = await lessonVideoFor(deps, id, request.usertoken);
    const object = await storedLessonVideo(deps, id, video);
    if (!video.cacheControl.startsWith('private')) reply.removeHeader('vary');
    return sendStored(request, reply, deps.storage, object, { cacheControl: video.cacheControl });
  });

  route(app, endpoints.courseprogress, {
    auth: 'required',
    handler: async ({ session }) => ({ code: SUCCESS_CODE, message: '', ...(await courseProgressOf(deps, session)) }),
  });

  route(app, endpoints.coursesaveprogress, {
    auth: 'required',
    handler: async ({ fields, session }) => {
      const progress = await saveCourseProgress(deps, session, fields);
      return { code: SUCCESS_CODE, message: '', progress };
    },
  });
};
