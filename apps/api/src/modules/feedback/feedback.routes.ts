import type { FastifyError, FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  FEEDBACK_BODY_LIMIT_BYTES,
  FEEDBACK_ERRORS,
  FEEDBACK_MESSAGES,
  SUCCESS_CODE,
  ZComplaintSubmitRequest,
  ZFeedbackSubmitRequest,
} from '@xcad/protocol';
import type { z } from 'zod';
import { readFields } from '../../plugins/fields';
import { sessionTokenOf } from '../auth/session-cookie';
import type { SiteRoutesOptions } from '../site-deps';
import { submitComplaint, submitFeedback, type SubmissionContext } from './feedback.service';

// Feedback and complaint forms (issue 5): `POST /api/v4/feedbacksubmit` and
// `POST /api/v4/complaintsubmit`, signed (spec §7, plugins/datasign.ts), answering
// `{code: 10000, ticketno}`. Screenshots travel base64-encoded in the signed JSON body, so these
// two routes accept a larger body than the API's default (FEEDBACK_BODY_LIMIT_BYTES).

function fieldsOf<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  return readFields(schema, body, FEEDBACK_ERRORS.invalidField);
}

function contextOf(request: FastifyRequest, usertoken: string | undefined): SubmissionContext {
  return {
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? '',
    // The web's own pages may rely on the session cookie instead of a usertoken in the body.
    usertoken: usertoken === undefined || usertoken === '' ? sessionTokenOf(request) : usertoken,
  };
}

export const feedbackRoutes: FastifyPluginAsync<SiteRoutesOptions> = async (app, { deps }) => {
  // A body over the limit can only hold too many screenshot bytes: say so on that field. Every
  // other failure goes on to the API's one error handler.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.statusCode !== 413) throw error;
    request.log.info({ reason: error.message }, 'feedback body over the limit');
    return reply.code(413).send({ code: FEEDBACK_ERRORS.invalidField.codes[0], message: FEEDBACK_MESSAGES.screenshotsTooLarge, field: 'screenshots' });
  });

  const options = { bodyLimit: FEEDBACK_BODY_LIMIT_BYTES };

  app.post('/api/v4/feedbacksubmit', options, async (request) => {
    const fields = fieldsOf(ZFeedbackSubmitRequest, request.body);
    const ticketno = await submitFeedback(deps, fields, contextOf(request, fields.usertoken));
    return { code: SUCCESS_CODE, message: '', ticketno };
  });

  app.post('/api/v4/complaintsubmit', options, async (request) => {
    const fields = fieldsOf(ZComplaintSubmitRequest, request.body);
    const ticketno = await submitComplaint(deps, fields, contextOf(request, fields.usertoken));
    return { code: SUCCESS_CODE, message: '', ticketno };
  });
};
