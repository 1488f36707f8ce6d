import { z } from 'zod';
import { INT32_MAX } from './input-rules';
import { zLine } from './input';

// Every product API answer (`/api/v4/*`) is one flat JSON object: `code`, `message`, then the
// endpoint's own fields at the top level (spec §7 reads `logintag`, `userinfo`, `utctime`,
// and imgverify's captcha in `message`). Business outcomes travel with HTTP 200 and their code,
// as the vendor's existing clients expect; failures of the transport contract itself (below) also
// carry an HTTP 4xx status so proxies and logs see them. See docs/decisions/0004.

export const SUCCESS_CODE = 10000 as const;
export const SUCCESS_MESSAGE = '成功';

/**
 * Codes for failures of the request contract. The spec assigns none of these, so they take
 * numbers its catalogue (§5, §8) leaves unused.
 */
export const PROTOCOL_ERRORS = {
  malformed: { code: 10001, status: 400, message: '请求参数错误' },
  badSignature: { code: 10002, status: 401, message: '请求签名校验失败' },
  staleTimestamp: { code: 10003, status: 401, message: '请求已过期，请校准时间后重试' },
  replayed: { code: 10004, status: 409, message: '请勿重复提交请求' },
  tooManyRequests: { code: 10429, status: 429, message: '请求过于频繁，请稍后再试' },
  notFound: { code: 10404, status: 404, message: '接口不存在' },
  internal: { code: 10500, status: 500, message: '服务器繁忙，请稍后再试' },
} as const;

export type ProtocolErrorKind = keyof typeof PROTOCOL_ERRORS;

/** The envelope every `/api/v4/*` answer shares. */
export const ZEnvelope = z.looseObject({
  code: z.number().int(),
  message: z.string().default(''),
});
export type TEnvelope = z.infer<typeof ZEnvelope>;

/** Successful answer of `schema`'s shape: envelope fields plus the endpoint's own. */
export function successOf<Shape extends z.ZodRawShape>(shape: Shape) {
  // extend (not a spread) so that a shape's own `message` (imgverify's captcha) replaces the envelope's in the types too.
  return z.looseObject({ code: z.literal(SUCCESS_CODE), message: z.string().default('') }).extend(shape);
}

/** An answer's own fields: `T` without the envelope's `code` and `message` (and the loose index signature). */
export type EnvelopeData<T> = { [K in keyof T as string extends K ? never : K extends 'code' | 'message' ? never : K]: T[K] };

// Form-encoded bodies carry every value as a string; JSON bodies may carry numbers.
const numericString = z.union([z.number(), z.string().regex(/^-?\d+$/)]).transform((v) => Number(v));

/**
 * The fields every signed body carries (spec §7): device id, timestamp in seconds (synchronised
 * through getutctime), product/software info, device type, language, device OS, and `datasign`.
 * `nonce` is ours: our clients add a random one so that two identical requests in one second are
 * not mistaken for a replay; older clients without it still work.
 */
export const ZCommonFields = z.object({
  deviceid: zLine(64).min(1),
  timestamp: numericString.pipe(z.number().int().positive()),
  softname: zLine(64).optional(),
  softversion: zLine(32).optional(),
  // Kept as it came (it is signed as sent); a product id fits an `integer` column.
  productid: z
    .union([
      z.number().int().min(0).max(INT32_MAX),
      z
        .string()
        .regex(/^\d{1,10}$/)
        .refine((text) => Number(text) <= INT32_MAX),
    ])
    .optional(),
  devicetype: zLine(32).optional(),
  language: zLine(16).optional(),
  deviceos: zLine(64).optional(),
  nonce: zLine(64).optional(),
  datasign: z.string().regex(/^[0-9a-fA-F]{32}$/),
});
export type TCommonFields = z.infer<typeof ZCommonFields>;

/** `GET|POST /api/v4/getutctime` -> server time in epoch seconds. */
export const ZGetUtcTimeResponse = successOf({ utctime: z.number().int() });
export type TGetUtcTimeResponse = z.infer<typeof ZGetUtcTimeResponse>;
