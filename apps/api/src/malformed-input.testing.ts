// The malformed-input sweep's inputs (decision 0028): what a hostile or broken client may send to any
// route, as whole requests. malformed-input.api.test.ts throws them at every route the app
// registers; nothing here knows a route by name, so a route added later is swept the same way.
import { createHash, randomUUID } from 'node:crypto';
import {
  endpoints,
  isAcceptableString,
  productDevice,
  signaturePayload,
  SESSION_COOKIE,
  type SignableFields,
  type ZCommonFields,
} from '@xcad/protocol';
import type { InjectOptions } from 'fastify';
import { z } from 'zod';

export interface SweptRoute {
  readonly method: string;
  /** As registered: `/api/site/drawings/:id/file`, `/wp-json/wp/v2/posts/:id(^\d+$)`, `/content/*`. */
  readonly url: string;
  /** Whether the route wants request signing (spec §7: every /api/v4 route that does not opt out). */
  readonly isSigned: boolean;
}

export interface Probe {
  /** What was sent, for the failure report. */
  readonly label: string;
  readonly request: InjectOptions;
}

/** What a probe may need to look like a real client: a session, the secret, and valid field values. */
export interface SweepContext {
  readonly secret: string;
  /** Epoch milliseconds of the app's clock. */
  now(): number;
  /** A signed-in user of this route's probes: its own session, so a logout probe ends no other's. */
  readonly session: { readonly account: string; readonly usertoken: string; readonly filetoken: string };
  /** A valid value for each field name the app knows (tasktag of a real task, orderno of a real order, ...). */
  readonly examples: Readonly<Record<string, unknown>>;
}

type Value = SignableFields[string] | null;

const deep = (depth: number, leaf: unknown, wrap: (inner: unknown) => unknown): unknown => {
  let value = leaf;
  for (let level = 0; level < depth; level++) value = wrap(value);
  return value;
};

/**
 * Values a field may be given. The first SHARP_COUNT are the sharpest (they broke the API once:
 * NUL, half a surrogate pair, integers past 32 bits, wrong types): every field a route reads gets
 * each of them. The rest are spread over the route's fields, and every one is also tried in all
 * fields at once.
 */
export const HOSTILE_VALUES: ReadonlyArray<readonly [string, Value]> = [
  ['NUL inside', 'ab\u0000cd'],
  ['lone high surrogate', 'x\ud800y'],
  ['2^31', 2 ** 31],
  ['2^63 as text', '9223372036854775808'],
  ['array holding 2^31', [2 ** 31]],
  ['object', { $gt: '' }],
  ['10k characters', 'x'.repeat(10_000)],
  ['NaN as text', 'NaN'],
  // spread over the fields
  ['NUL', '\u0000'],
  ['-2^31-1', -(2 ** 31) - 1],
  ['30 digits', '9'.repeat(30)],
  ['array of texts', ['a', 'b']],
  ['path traversal', '../../../../etc/passwd'],
  ['empty', ''],
  ['space', ' '],
  ['C0 controls', '\u0001\u0008\u001b[31m\u001f'],
  ['DEL', '\u007f'],
  ['CR LF', 'a\r\nb'],
  ['lone low surrogate', '\udc00'],
  ['swapped surrogates', '\udc00\ud800'],
  ['U+FFFF', '\uffff'],
  ['BOM', '\ufeff1'],
  ['RTL override', '\u202e1'],
  ['emoji', '😀'.repeat(40)],
  ['CJK', '图'.repeat(300)],
  ['200k characters', 'y'.repeat(200_000)],
  ['encoded traversal', '..%2f..%2fetc%2fpasswd'],
  ['backslash traversal', '..\\..\\windows\\win.ini'],
  ['broken percent', '%E0%A4%A'],
  ['SQL', "' OR '1'='1'; DROP TABLE app_user; --"],
  ['LIKE wildcards', '%_%\\'],
  ['markup', '<script>alert(1)</script>'],
  ['template', '${7*7}{{7*7}}'],
  ['__proto__', '__proto__'],
  ['constructor', 'constructor'],
  ['Infinity as text', 'Infinity'],
  ['-Infinity as text', '-Infinity'],
  ['1e309 as text', '1e309'],
  ['-1 as text', '-1'],
  ['2^31 as text', '2147483648'],
  ['2^64 as text', '18446744073709551616'],
  ['hex', '0x7fffffff'],
  ['decimal as text', '1.5'],
  ['padded number', ' 42 '],
  ['full-width digits', '１２３'],
  ['0', 0],
  ['-1', -1],
  ['1.5', 1.5],
  ['2^32', 2 ** 32],
  ['2^53+2', 2 ** 53 + 2],
  ['2^63', 2 ** 63],
  ['1e308', 1e308],
  ['-1e308', -1e308],
  ['5e-324', Number.MIN_VALUE],
  ['true', true],
  ['false', false],
  ['null', null],
  ['empty array', []],
  ['array of numbers', [2 ** 40, -1]],
  ['nested array', [[['x']]]],
  ['empty object', {}],
  ['__proto__ object', JSON.parse('{"__proto__":{"polluted":true}}') as Value],
  ['1000 levels deep', deep(1000, 'x', (inner) => [inner]) as Value],
];

export const SHARP_COUNT = 8;
/** The sharp values also tried inside the objects a field carries (an analytics event's fields). */
const NESTED_SHARP_COUNT = 3;

/** Path segments put into a route's parameters (already percent-encoded as they travel). */
export const HOSTILE_SEGMENTS: readonly string[] = [
  '%00',
  'a%00b',
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  '..',
  '%ED%A0%80',
  '%FF%FE',
  '%ZZ',
  '9'.repeat(30),
  '9223372036854775808',
  '2147483648',
  '-1',
  '1.5',
  'x'.repeat(5000),
  '%3Cscript%3E',
  '%20',
  '__proto__',
];

/**
 * Field names of routes the protocol registry does not describe (unsigned GETs, chunk uploads,
 * the content API, analytics, dev pages): the query and body names those routes read.
 */
export const GENERIC_FIELDS: readonly string[] = [
  'id',
  'page',
  'per_page',
  'q',
  'search',
  'slug',
  'platform',
  'tasktag',
  'code',
  'deviceid',
  'events',
  'state',
];

/** The common fields a route may read beyond the signature check (the others only pass ZCommonFields). */
const COMMON_FIELDS: ReadonlyArray<keyof typeof ZCommonFields.shape> = ['deviceid', 'productid', 'timestamp', 'nonce'];

const REGISTRY = new Map<string, readonly string[]>(
  Object.values(endpoints).map((endpoint) => {
    const schema: z.ZodType = endpoint.request;
    return [endpoint.path, schema instanceof z.ZodObject ? Object.keys(schema.shape) : []];
  }),
);

function hasBody(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD';
}

/** The route's parameters: `:name` (with or without a pattern) and the wildcard `*`. */
export function paramsOf(url: string): string[] {
  return [...url.matchAll(/:(\w+)(?:\([^)]*\))?|\*/g)].map((match) => match[1] ?? '*');
}

function pathWith(url: string, segments: Readonly<Record<string, string>>): string {
  return url.replace(/:(\w+)(?:\([^)]*\))?|\*/g, (_all, name: string | undefined) => segments[name ?? '*'] ?? '1');
}

/** One field of a query string: arrays repeat the key, objects become `key[sub]`, null is empty. */
function queryPairs(name: string, value: unknown): Array<[string, string]> {
  if (value === null || value === undefined) return [[name, '']];
  if (Array.isArray(value)) return value.flatMap((item) => queryPairs(name, item));
  if (typeof value === 'object') return Object.entries(value).flatMap(([key, inner]) => queryPairs(`${name}[${key}]`, inner));
  return [[name, String(value)]];
}

function queryString(fields: Readonly<Record<string, unknown>>): string {
  return Object.entries(fields)
    .flatMap(([name, value]) => queryPairs(name, value))
    .map(([name, value]) => `${encodeComponent(name)}=${encodeComponent(value)}`)
    .join('&');
}

/** encodeURIComponent that keeps a lone surrogate as the bytes a broken client would send (WTF-8). */
function encodeComponent(text: string): string {
  if (isAcceptableString(text)) return encodeURIComponent(text);
  return Array.from(text, (char) => {
    const code = char.charCodeAt(0);
    if (char.length === 1 && code >= 0xd800 && code <= 0xdfff)
      return `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`;
    return encodeURIComponent(char);
  }).join('');
}

let addressSequence = 0;

/** A client address of its own per probe: the per-address limits must not hide the deeper checks. */
function freshAddress(): string {
  addressSequence += 1;
  return `10.${(addressSequence >> 16) & 255}.${(addressSequence >> 8) & 255}.${addressSequence & 255}`;
}

interface Shape {
  readonly route: SweptRoute;
  readonly context: SweepContext;
  readonly isSignedIn: boolean;
}

/** The fields a valid request of the route would carry (the hostile value then replaces one of them). */
function baselineOf({ route, context, isSignedIn }: Shape, names: readonly string[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const name of names) if (name in context.examples) fields[name] = context.examples[name];
  if (isSignedIn) {
    fields['account'] = context.session.account;
    fields['usertoken'] = context.session.usertoken;
  } else {
    delete fields['account'];
    delete fields['usertoken'];
  }
  if (route.isSigned) {
    Object.assign(fields, productDevice(`sweep-${randomUUID()}`), { timestamp: Math.floor(context.now() / 1000), nonce: randomUUID() });
  }
  return fields;
}

function headersOf({ context, isSignedIn }: Shape, contentType?: string): Record<string, string> {
  const headers: Record<string, string> = { 'x-product': '141' };
  if (isSignedIn) {
    headers['cookie'] = `${SESSION_COOKIE}=${context.session.usertoken}`;
    headers['x-auth-token'] = context.session.filetoken;
  }
  if (contentType !== undefined) headers['content-type'] = contentType;
  return headers;
}

/** `fields` with their datasign (spec §7), hashed natively: the protocol's MD5 is slow on the sweep's large bodies. */
function signed(fields: SignableFields, secret: string): SignableFields {
  return {
    ...fields,
    datasign: createHash('md5')
      .update(signaturePayload(fields) + secret, 'utf8')
      .digest('hex'),
  };
}

/** A request with `fields` where the route reads them: the query of a GET, the JSON body (signed on /api/v4) otherwise. */
function fieldsRequest(
  shape: Shape,
  fields: Record<string, unknown>,
  segments: Readonly<Record<string, string>> = {},
  encoding: 'json' | 'form' = 'json',
): InjectOptions {
  const { route, context } = shape;
  const path = pathWith(route.url, segments);
  const base = { method: route.method as InjectOptions['method'], remoteAddress: freshAddress() };
  if (!hasBody(route.method)) return { ...base, url: `${path}?${queryString(fields)}`, headers: headersOf(shape) };
  if (route.isSigned) {
    const body = signed(fields as SignableFields, context.secret);
    if (encoding === 'form')
      return { ...base, url: path, payload: queryString(body), headers: headersOf(shape, 'application/x-www-form-urlencoded') };
    return { ...base, url: path, payload: JSON.stringify(body), headers: headersOf(shape, 'application/json') };
  }
  // Unsigned routes may read their fields from the query (the chunk uploads): they get them in both.
  const url = `${path}?${queryString(fields)}`;
  if (encoding === 'form')
    return { ...base, url, payload: queryString(fields), headers: headersOf(shape, 'application/x-www-form-urlencoded') };
  return { ...base, url, payload: JSON.stringify(fields), headers: headersOf(shape, 'application/json') };
}

/** The field names a route's probes target: the registry's request fields and the common ones, or the generic names. */
export function fieldNamesOf(route: SweptRoute): { own: readonly string[]; common: readonly string[] } {
  const registered = REGISTRY.get(route.url) ?? [];
  const own = registered.length > 0 ? registered : [...paramsOf(route.url).filter((name) => name !== '*'), ...GENERIC_FIELDS];
  return { own, common: route.isSigned ? COMMON_FIELDS : [] };
}

function fieldProbes(route: SweptRoute, context: SweepContext): Probe[] {
  const { own, common } = fieldNamesOf(route);
  const names = [...own, ...common];
  const probes: Probe[] = [];
  const probe = (label: string, fields: Record<string, unknown>, shape: Shape, encoding: 'json' | 'form' = 'json') =>
    probes.push({
      label: `${label}${shape.isSignedIn ? ' (signed in)' : ''}${encoding === 'form' ? ' as a form' : ''}`,
      request: fieldsRequest(shape, fields, {}, encoding),
    });
  // The sharp values go down the signed-in path (most routes stop a visitor before their
  // repository); the others alternate, so each meets both the visitor's and the member's code.
  let sequence = 0;
  const nextShape = (): Shape => ({ route, context, isSignedIn: (sequence += 1) % 2 === 0 });
  const oneField = (name: string, label: string, value: Value, shape: Shape) =>
    probe(`${name} = ${label}`, { ...baselineOf(shape, names), [name]: value }, shape);
  for (const name of names)
    for (const [label, value] of HOSTILE_VALUES.slice(0, SHARP_COUNT)) oneField(name, label, value, { route, context, isSignedIn: true });
  HOSTILE_VALUES.slice(SHARP_COUNT).forEach(([label, value], index) => oneField(names[index % names.length]!, label, value, nextShape()));
  // Inside a list of objects (the example of `events`): each of the object's fields in turn.
  for (const name of names) {
    const example = context.examples[name];
    const item: unknown = Array.isArray(example) ? example[0] : undefined;
    if (typeof item !== 'object' || item === null) continue;
    for (const key of Object.keys(item)) {
      for (const [label, value] of HOSTILE_VALUES.slice(0, NESTED_SHARP_COUNT))
        oneField(name, `[{${key}: ${label}}]`, [{ ...item, [key]: value }] as Value, { route, context, isSignedIn: true });
    }
  }
  // Every field at once, for what only a combination reaches (a value too long for one request
  // only in one field at a time); the sharp texts also as a form body.
  const everyName = [...new Set([...names, ...GENERIC_FIELDS])];
  HOSTILE_VALUES.forEach(([label, value], index) => {
    if (typeof value === 'string' && value.length > 50_000) return;
    const shape = nextShape();
    const fields = { ...baselineOf(shape, everyName), ...Object.fromEntries(everyName.map((name) => [name, value])) };
    probe(`every field = ${label}`, fields, shape);
    if (index < SHARP_COUNT && hasBody(route.method) && typeof value === 'string') probe(`every field = ${label}`, fields, shape, 'form');
  });
  return probes;
}

function segmentProbes(route: SweptRoute, context: SweepContext): Probe[] {
  const shape: Shape = { route, context, isSignedIn: true };
  const fields = baselineOf(shape, fieldNamesOf(route).own);
  return paramsOf(route.url).flatMap((name) =>
    HOSTILE_SEGMENTS.map((segment) => ({
      label: `path ${name} = ${segment.slice(0, 40)}`,
      request: fieldsRequest(shape, fields, { [name]: segment }),
    })),
  );
}

const DEEP_ARRAY = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
/** Common fields that pass their own checks, and a field too deep to sign or log recursively. */
const DEEP_SIGNED_LOOKING = `{"deviceid":"d","timestamp":${Math.floor(Date.now() / 1000)},"datasign":"${'0'.repeat(32)}","x":${DEEP_ARRAY}}`;
const DEEP_OBJECT = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
const WIDE_OBJECT = JSON.stringify(Object.fromEntries(Array.from({ length: 10_000 }, (_, index) => [`k${index}`, index])));
const LONG_ARRAY = JSON.stringify({ events: Array.from({ length: 20_000 }, () => 0) });
const OVER_LIMIT = JSON.stringify({ x: 'z'.repeat(1_100_000) });
const BAD_UTF8 = Buffer.concat([Buffer.from('{"deviceid":"'), Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80]), Buffer.from('"}')]);
const MULTIPART = '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--\r\n';

/** Whole-request probes: bodies that are not objects, broken or huge JSON, wrong content types, odd methods, odd queries. */
function requestProbes(route: SweptRoute, context: SweepContext): Probe[] {
  const path = pathWith(route.url, Object.fromEntries(paramsOf(route.url).map((name) => [name, String(context.examples[name] ?? '1')])));
  const request = (label: string, options: Omit<InjectOptions, 'remoteAddress'>): Probe => ({
    label,
    request: { method: route.method as InjectOptions['method'], url: path, remoteAddress: freshAddress(), ...options } as InjectOptions,
  });
  const json = (label: string, payload: string | Buffer, contentType = 'application/json'): Probe =>
    request(label, { payload, headers: { 'content-type': contentType } });
  const probes: Probe[] = [
    request('no body', {}),
    json('empty JSON body', ''),
    json('JSON null', 'null'),
    json('JSON array', '[]'),
    json('JSON text', '"text"'),
    json('JSON number', '123'),
    json('JSON true', 'true'),
    json('broken JSON', '{"a":'),
    json('JSON with a BOM', '\ufeff{}'),
    json('50k levels of arrays', DEEP_ARRAY),
    json('20k levels of objects', DEEP_OBJECT),
    json('signed-looking body with 50k levels', DEEP_SIGNED_LOOKING),
    json('50k levels and a constructor key', `{"constructor":{},"x":${DEEP_ARRAY}}`),
    json('10k keys', WIDE_OBJECT),
    json('20k array items', LONG_ARRAY),
    json('over the body limit', OVER_LIMIT),
    json('duplicate keys', '{"deviceid":"a","deviceid":["b"]}'),
    json('__proto__ key', '{"__proto__":{"polluted":true},"deviceid":"a"}'),
    json('constructor.prototype key', '{"constructor":{"prototype":{"polluted":true}}}'),
    json('bad UTF-8', BAD_UTF8),
    json('escaped NUL key', '{"a\\u0000b":1}'),
    json('escaped lone surrogate', '{"deviceid":"\\ud800"}'),
    json('UTF-16 charset', '{}', 'application/json; charset=utf-16'),
    json('text/plain', '{"events":[]}', 'text/plain'),
    json('XML', '<a/>', 'application/xml'),
    json('octet-stream', Buffer.from([0, 1, 2, 255])),
    json('multipart', MULTIPART, 'multipart/form-data; boundary=b'),
    json('form with NUL and bad escapes', 'a=%00&a=%ZZ&b[c]=1&__proto__=x', 'application/x-www-form-urlencoded'),
    json('no content type', '{}', ''),
    request('duplicate query keys', { url: `${path}?page=1&page=2&tasktag=a&tasktag=b&id=1&id=2` }),
    request('prototype query keys', { url: `${path}?__proto__=x&constructor=y&hasOwnProperty=z` }),
    request('broken query escapes', { url: `${path}?%ZZ=1&a=%E0%A4%A&b=%00` }),
    request('long query', { url: `${path}?q=${'x'.repeat(20_000)}` }),
  ];
  for (const method of ['PUT', 'PATCH', 'DELETE', 'OPTIONS', route.method === 'GET' ? 'POST' : 'GET'] as const) {
    probes.push({ label: `method ${method}`, request: { method, url: path, remoteAddress: freshAddress() } });
  }
  return probes;
}

/** Every probe of one route. */
export function probesOf(route: SweptRoute, context: SweepContext): Probe[] {
  return [...fieldProbes(route, context), ...segmentProbes(route, context), ...requestProbes(route, context)];
}

/** What no answer may contain: a stack frame or the database's own words. */
export const LEAK_PATTERN =
  /\n\s+at |\bat \S+ \(|\.(?:ts|js|mjs):\d+:\d+|node:internal|SQLITE_|invalid byte sequence|out of range for type|syntax error at|violates \w+ constraint|relation "\w+"|\b(?:SELECT|INSERT INTO|UPDATE|DELETE FROM)\b[^"]*\b(?:FROM|VALUES|SET|WHERE)\b/;
