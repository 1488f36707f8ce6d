import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { ApiError, PROTOCOL_ERRORS, type ProtocolErrorKind } from '@xcad/protocol';

// One error path for the whole API (docs/decisions/0004): every failure answers the envelope
// `{code, message}`; unexpected errors answer a generic message and are logged with the request
// id, never sent to the client.

/** Answers the contract-failure envelope of `kind`, with its status unless `status` is given. */
export function sendProtocolError(reply: FastifyReply, kind: ProtocolErrorKind, status?: number): FastifyReply {
  const { code, message, status: defaultStatus } = PROTOCOL_ERRORS[kind];
  return reply.code(status ?? defaultStatus).send({ code, message });
}

interface ErrorAnswer {
  kind: ProtocolErrorKind;
  status: number;
}

function answerFor(error: FastifyError): ErrorAnswer {
  if (error.validation !== undefined) return { kind: 'malformed', status: 400 };
  const status = error.statusCode ?? 500;
  if (status === 404) return { kind: 'notFound', status };
  if (status === 429) return { kind: 'tooManyRequests', status };
  // A body over BODY_LIMIT_BYTES keeps its 413 so proxies and clients see what went wrong.
  if (status === 413) return { kind: 'malformed', status };
  // Bad JSON, an unsupported content type, a wrong content length, ...: the request's fault.
  if (status >= 400 && status < 500) return { kind: 'malformed', status: 400 };
  return { kind: 'internal', status: 500 };
}

// WordPress's own answer for an unknown REST route (FACTS.md "WordPress REST API").
const WP_NO_ROUTE = {
  code: 'rest_no_route',
  message: 'No route was found matching the URL and request method.',
  data: { status: 404 },
} as const;

const WP_PATH = /^\/wp-json(?:[/?]|$)/;

/** Whether `url` belongs to the WordPress-compatible content API, which answers in WordPress's shape. */
export function isWordPressPath(url: string): boolean {
  return WP_PATH.test(url);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    // A refusal a service chose (business codes answer with HTTP 200, decision 0004).
    if (error instanceof ApiError) {
      request.log.info({ code: error.code, reason: error.logMessage }, 'request refused');
      return reply.code(error.httpStatus).send(error.toEnvelope());
    }
    const answer = answerFor(error);
    if (answer.kind === 'internal') {
      request.log.error({ err: error }, 'request failed');
    } else {
      request.log.info({ code: error.code, reason: error.message }, 'request refused');
    }
    return sendProtocolError(reply, answer.kind, answer.status);
  });

  app.setNotFoundHandler((request, reply) => {
    if (isWordPressPath(request.url)) return reply.code(404).send(WP_NO_ROUTE);
    return sendProtocolError(reply, 'notFound');
  });
}
