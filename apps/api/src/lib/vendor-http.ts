import type { FetchLike } from '@xcad/protocol';
import { z } from 'zod';

// Every call to a vendor's HTTP API (SMS, WeChat/QQ sign-in, WeChat Pay, Alipay) goes through
// here: one request bounded in time that never throws, and its answer read with a zod schema of
// the fields the adapter uses, so odd or hostile answers never throw either. Adapters take a
// `FetchLike` (the protocol's, also used by mirror selection) so tests answer without a network.

/** How long an SMS or payment vendor may take before the call counts as failed. */
export const VENDOR_HTTP_TIMEOUT_MS = 10_000;

/** What a vendor adapter may be given instead of the defaults: fetch (a test's recorded answers) and its time limit. */
export interface VendorDeps {
  fetch?: FetchLike;
  timeoutMs?: number;
}

export interface VendorRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

/** The answer's exact text: the payment vendors sign the bytes, not the parsed JSON. */
export type VendorReply = { kind: 'answer'; status: number; headers: Headers; text: string } | { kind: 'failure'; detail: string };

export async function callVendor(fetchImpl: FetchLike, url: string, request: VendorRequest, timeoutMs: number): Promise<VendorReply> {
  return fetchWithin(fetchImpl, url, request, timeoutMs, async (response) => ({
    kind: 'answer',
    status: response.status,
    headers: response.headers,
    text: await response.text(),
  }));
}

/** The answer's bytes, for a file (decision 0043: a provider's bill). */
export async function callVendorBytes(
  fetchImpl: FetchLike,
  url: string,
  request: VendorRequest,
  timeoutMs: number,
): Promise<{ kind: 'answer'; status: number; bytes: Buffer } | { kind: 'failure'; detail: string }> {
  return fetchWithin(fetchImpl, url, request, timeoutMs, async (response) => ({
    kind: 'answer',
    status: response.status,
    bytes: Buffer.from(await response.arrayBuffer()),
  }));
}

async function fetchWithin<T>(
  fetchImpl: FetchLike,
  url: string,
  request: VendorRequest,
  timeoutMs: number,
  read: (response: Response) => Promise<T>,
): Promise<T | { kind: 'failure'; detail: string }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    return await read(await fetchImpl(url, { ...request, signal: controller.signal }));
  } catch (error) {
    if (controller.signal.aborted) return { kind: 'failure', detail: `no answer within ${timeoutMs} ms` };
    return { kind: 'failure', detail: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A network error, a timeout (or a 5xx when the caller counts it so) is `unavailable`; an answer
 * that is not JSON, or not of the schema's shape, is `malformed`.
 */
export type VendorJson<T> =
  { kind: 'answer'; status: number; body: T } | { kind: 'failure'; reason: 'unavailable' | 'malformed'; detail: string };

export interface VendorJsonOptions {
  /** Names the call in failure details, when the URL must not be logged (it carries a secret). */
  label?: string;
  /** A 5xx is `unavailable` without reading its body (the sign-in vendors answer errors with 200). */
  serverErrorIsFailure?: boolean;
}

export async function callVendorJson<T>(
  fetchImpl: FetchLike,
  url: string,
  request: VendorRequest,
  timeoutMs: number,
  schema: z.ZodType<T>,
  options: VendorJsonOptions = {},
): Promise<VendorJson<T>> {
  const answer = await readVendorJson(fetchImpl, url, request, timeoutMs, schema, options.serverErrorIsFailure === true);
  return answer.kind === 'failure' && options.label !== undefined ? { ...answer, detail: `${options.label}: ${answer.detail}` } : answer;
}

async function readVendorJson<T>(
  fetchImpl: FetchLike,
  url: string,
  request: VendorRequest,
  timeoutMs: number,
  schema: z.ZodType<T>,
  serverErrorIsFailure: boolean,
): Promise<VendorJson<T>> {
  const reply = await callVendor(fetchImpl, url, request, timeoutMs);
  if (reply.kind === 'failure') return { kind: 'failure', reason: 'unavailable', detail: reply.detail };
  if (serverErrorIsFailure && reply.status >= 500) return { kind: 'failure', reason: 'unavailable', detail: `HTTP ${reply.status}` };
  let json: unknown;
  try {
    json = JSON.parse(reply.text);
  } catch {
    return { kind: 'failure', reason: 'malformed', detail: `HTTP ${reply.status}: answer is not JSON` };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) return { kind: 'failure', reason: 'malformed', detail: `HTTP ${reply.status}: ${z.prettifyError(parsed.error)}` };
  return { kind: 'answer', status: reply.status, body: parsed.data };
}

// Lenient schema parts: a vendor field of an unexpected type reads as absent, as a field the
// vendor left out does, and the adapter's own checks decide what an absent field means.

/** A field of any type, or undefined. */
export const vendorValue = z.unknown().optional();

/** A string field, or undefined. */
export const vendorString = z.string().optional().catch(undefined);

/** A non-empty string field, or undefined. */
export const vendorText = z.string().min(1).optional().catch(undefined);

/** An object of `shape`; anything that is not an object reads as an empty one. */
export function vendorObject<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.looseObject(shape).catch(() => z.looseObject(shape).parse({}));
}

/** JSON.parse that answers undefined instead of throwing. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A JSON text already in hand (an answer whose signature was checked, a decrypted notice) read
 * with a lenient schema (`vendorObject`); text that is not JSON reads as an empty object.
 */
export function vendorJsonOf<T>(text: string, schema: z.ZodType<T>): T {
  return schema.parse(parseJson(text));
}
