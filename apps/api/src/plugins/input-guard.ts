import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAcceptableString, MAX_INPUT_DEPTH } from '@xcad/protocol';
import { isWordPressPath, sendProtocolError } from './errors';

// Decision 0028: one guard in front of every route. No string of a request (query, path parameters,
// body, keys included) may hold NUL (PostgreSQL refuses it in text, so it would reach a
// repository as a 500) or half a surrogate pair (not a character: encoding it fails or changes
// it), and no body may nest deeper than MAX_INPUT_DEPTH (signing and logging walk it
// recursively). Each field's own rules (length, controls, integer ranges) are in the protocol's
// schemas (input.ts); this is the floor under all of them, so a route that forgets one still
// never sends NUL to the database. Decision 0028.

export interface InputProblem {
  /** The top-level name of the part that broke the rule ('' for a body that is itself a string). */
  readonly field: string;
  readonly reason: string;
}

/**
 * Plain parsed data: what the JSON, form and query parsers make (the query parser's dictionaries
 * descend from a prototype-less object). Streams and buffers of the raw-body routes are not walked.
 */
function isPlainData(value: object): boolean {
  if (Array.isArray(value)) return true;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === null || Object.getPrototypeOf(prototype) === null;
}

/** The first rule `value` breaks, walking it without recursion; undefined when it keeps them all. */
export function inputProblemOf(value: unknown): InputProblem | undefined {
  const pending: Array<{ value: unknown; depth: number; field: string }> = [{ value, depth: 0, field: '' }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const { depth, field } = item;
    if (typeof item.value === 'string') {
      if (!isAcceptableString(item.value)) return { field, reason: 'NUL or half a surrogate pair in a value' };
      continue;
    }
    if (typeof item.value !== 'object' || item.value === null || !isPlainData(item.value)) continue;
    if (depth >= MAX_INPUT_DEPTH) return { field, reason: `nested deeper than ${MAX_INPUT_DEPTH}` };
    for (const [key, inner] of Object.entries(item.value)) {
      const name = depth === 0 ? key : field;
      if (!isAcceptableString(key)) return { field: name, reason: 'NUL or half a surrogate pair in a name' };
      pending.push({ value: inner, depth: depth + 1, field: name });
    }
  }
  return undefined;
}

// WordPress's answer for a parameter it cannot read (FACTS.md "WordPress REST API").
function wordPressRefusal(field: string) {
  return {
    code: 'rest_invalid_param',
    message: `Invalid parameter(s): ${field}`,
    data: { status: 400, params: { [field]: 'Invalid parameter.' } },
  };
}

function refuse(request: FastifyRequest, reply: FastifyReply, part: string, problem: InputProblem): FastifyReply {
  request.log.info({ part, field: problem.field, reason: problem.reason }, 'request input refused');
  if (isWordPressPath(request.url)) return reply.code(400).send(wordPressRefusal(problem.field));
  return sendProtocolError(reply, 'malformed');
}

/** Registers the guard for every route registered after this call (app.ts calls it first). */
export function registerInputGuard(app: FastifyInstance): void {
  // preValidation: the body is parsed, no route hook (request signing) has run yet.
  app.addHook('preValidation', async (request, reply) => {
    for (const [part, value] of [
      ['params', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
      const problem = inputProblemOf(value);
      if (problem !== undefined) return refuse(request, reply, part, problem);
    }
    return undefined;
  });
}
