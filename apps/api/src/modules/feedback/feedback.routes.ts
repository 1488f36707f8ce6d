import type { FastifyError, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { endpoints, FEEDBACK_BODY_LIMIT_BYTES, FEEDBACK_ERRORS, FEEDBACK_MESSAGES, SUCCESS_CODE } from '@xcad/protocol';
import { route } from '../../plugins/route';
import type { SignedIn } from '../auth/session.service';
import type { SiteRoutesOptions } from '../site-deps';
import { submitComplaint, submitFeedback, type SubmissionContext } from './feedback.service';

// Feedback and complaint forms: `POST /api/v4/feedbacksubmit` and `POST /api/v4/complaintsubmit`,
// signed (spec §7, plugins/datasign.ts), answering `{code: 10000, ticketno}`. Screenshots travel
// base64-encoded in the signed JSON body, so these two routes accept a larger body than the API's
// default (FEEDBACK_BODY_LIMIT_BYTES).

function contextOf({ request, session }: { request: FastifyRequest; session: SignedIn | null }): SubmissionContext {
  // An expired session does not stop a submission: it is then a visitor's.
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? '', userId: session === null ? null : session.user.id };
}

export const feedbackRoutes: FastifyPluginAsync<SiteRoutesOptions> = async (app, { deps }) => {
  // A body over the limit can only hold too many screenshot bytes: say so on that field. Every
  // other failure goes on to the API's one error handler.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.statusCode !== 413) throw error;
    request.log.info({ reason: error.message }, 'feedback body over the limit');
    return reply
      .code(413)
      .send({ code: FEEDBACK_ERRORS.invalidField.codes[0], message: FEEDBACK_MESSAGES.screenshotsTooLarge, field: 'screenshots' });
  });

  route(app, endpoints.feedbacksubmit, {
    auth: 'optional',
    bodyLimit: FEEDBACK_BODY_LIMIT_BYTES,
    handler: async (call) => ({ code: SUCCESS_CODE, message: '', ticketno: await submitFeedback(deps, call.fields, contextOf(call)) }),
  });

  route(app, endpoints.complaintsubmit, {
    auth: 'optional',
    bodyLimit: FEEDBACK_BODY_LIMIT_BYTES,
    handler: async (call) => ({ code: SUCCESS_CODE, message: '', ticketno: await submitComplaint(deps, call.fields, contextOf(call)) }),
  });
};
