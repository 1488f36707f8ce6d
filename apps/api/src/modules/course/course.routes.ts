import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ApiError, COURSE_ERRORS, COURSE_PATHS, SUCCESS_CODE, ZCourseProgressRequest, ZCourseSaveProgressRequest, type TSignedInFields } from '@xcad/protocol';
import type { z } from 'zod';
import { readFields } from '../../plugins/fields';
import { sendStored } from '../../storage';
import { sessionTokenOf } from '../auth/session-cookie';
import type { Credentials } from '../auth/session.service';
import type { SiteRoutesOptions } from '../site-deps';
import { courseProgressOf, courseWithLessons, lessonVideoFor, saveCourseProgress, storedLessonVideo } from './course.service';

// The video course (issue 5, /video.html): the public lesson list, each lesson's clip (Range
// requests for seeking; member clips only after the membership check), and the two signed calls
// that read and save a user's progress. Routes do HTTP only.

function fieldsOf<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  return readFields(schema, body, COURSE_ERRORS.invalidField);
}

/** The usertoken of the body, else of the session cookie (the web's server-side calls). */
function credentialsOf(request: FastifyRequest, fields: TSignedInFields): Credentials {
  const usertoken = fields.usertoken === undefined || fields.usertoken === '' ? sessionTokenOf(request) : fields.usertoken;
  return { usertoken, account: fields.account };
}

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
    const video = await lessonVideoFor(deps, id, sessionTokenOf(request));
    const object = await storedLessonVideo(deps, id, video);
    if (!video.cacheControl.startsWith('private')) reply.removeHeader('vary');
    return sendStored(request, reply, deps.storage, object, { cacheControl: video.cacheControl });
  });

  app.post('/api/v4/courseprogress', async (request) => {
    const fields = fieldsOf(ZCourseProgressRequest, request.body);
    const answer = await courseProgressOf(deps, credentialsOf(request, fields));
    return { code: SUCCESS_CODE, message: '', ...answer };
  });

  app.post('/api/v4/coursesaveprogress', async (request) => {
    const fields = fieldsOf(ZCourseSaveProgressRequest, request.body);
    const progress = await saveCourseProgress(deps, credentialsOf(request, fields), fields);
    return { code: SUCCESS_CODE, message: '', progress };
  });
};
