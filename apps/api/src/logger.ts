import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type Logger, type LoggerOptions } from 'pino';
import type { Env } from './env';

// Credentials and one-time codes never reach the log. The paths are explicit (top level and the
// request parts code logs: body, query, params, headers): pino's wildcard paths cost ~35% of the
// API's throughput because every access line is walked with them.
const SECRET_FIELDS = ['password', 'smscode', 'usertoken', 'datasign', 'token'];
const SECRET_HEADERS = ['authorization', 'cookie', 'x-auth-token', 'set-cookie'];
const LOGGED_PARTS = ['body', 'query', 'params', 'req.body', 'req.query'];

export function loggerOptions(env: Pick<Env, 'LOG_LEVEL'>): LoggerOptions {
  return {
    level: env.LOG_LEVEL,
    redact: {
      paths: [
        ...SECRET_HEADERS.flatMap((header) => [`req.headers["${header}"]`, `res.headers["${header}"]`, `headers["${header}"]`]),
        ...SECRET_FIELDS.flatMap((field) => [field, ...LOGGED_PARTS.map((part) => `${part}.${field}`)]),
      ],
      censor: '[redacted]',
    },
  };
}

export function createLogger(env: Pick<Env, 'LOG_LEVEL'>): Logger {
  return pino(loggerOptions(env));
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The caller's `x-request-id` when it is a sane token (it reaches the logs), else a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

const INFO = pino.levels.values['info'] ?? 30;

/** One access-log line per request, when it completes, instead of Fastify's two. */
export class AccessLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    // Skip building the line when it would be dropped (getutctime is benchmarked at LOG_LEVEL=warn).
    if (!error && (pino.levels.values[reply.log.level] ?? Infinity) > INFO) return;
    // The path only: query strings may carry tokens.
    const path = request.url.split('?', 1)[0];
    const line = { method: request.method, path, status: reply.statusCode, ms: Math.round(reply.elapsedTime) };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }
}
