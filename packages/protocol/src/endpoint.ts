import type { z } from 'zod';
import type { SignableFields } from './signing';

/** One product API call: its path and the zod schemas of its own request and response fields. */
export interface Endpoint<Req extends z.ZodType<SignableFields> = z.ZodType<SignableFields>, Res extends z.ZodType = z.ZodType> {
  readonly path: string;
  /** The HTTP methods it answers; POST when absent (spec §7: signed bodies are posted). */
  readonly methods?: readonly ('GET' | 'POST')[];
  /** `false` for the few unsigned calls (getutctime, which clients use to set `timestamp`). */
  readonly signed?: boolean;
  /** The endpoint's own body fields; the common fields and `datasign` are added by the client. */
  readonly request: Req;
  /** The whole successful answer, envelope included. */
  readonly response: Res;
}

export function defineEndpoint<Req extends z.ZodType<SignableFields>, Res extends z.ZodType>(
  endpoint: Endpoint<Req, Res>,
): Endpoint<Req, Res> {
  return endpoint;
}
