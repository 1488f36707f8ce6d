import { z } from 'zod';
import * as auth from './auth';
import { HEADERS, PRODUCT, TIMINGS, X_PRODUCT } from './constants';
import { PROTOCOL_ERRORS, SUCCESS_CODE, ZEnvelope, ZGetUtcTimeResponse } from './envelope';
import { CLIENT_ERRORS, type ClientErrorKind } from './errors';
import type { FetchLike } from './mirror';
import { defineEndpoint, type Endpoint } from './endpoint';
import { signFields, signedValueOf, type SignableFields } from './signing';
import { courseEndpoints } from './site/course';
import { drawingsEndpoints } from './site/drawings';
import { feedbackEndpoints } from './site/feedback';
import { payEndpoints } from './site/pay';
import { conversionEndpoints } from './site/conversion';

export { defineEndpoint, type Endpoint } from './endpoint';

// The typed client of the product API (spec §7), shared by the web, the desktop shell and tests.
// Runs unchanged in browsers and Node: it needs only fetch, AbortController and crypto.

/** The endpoint registry; each later feature adds its calls here. */
export const endpoints = {
  getutctime: defineEndpoint({
    path: '/api/v4/getutctime',
    methods: ['GET', 'POST'],
    signed: false,
    request: z.object({}),
    response: ZGetUtcTimeResponse,
  }),
  wechatguid: defineEndpoint({ path: '/api/v4/wechatguid', request: auth.ZWechatGuidRequest, response: auth.ZWechatGuidResponse }),
  wechatstate: defineEndpoint({ path: '/api/v4/wechatstate', request: auth.ZWechatStateRequest, response: auth.ZWechatStateResponse }),
  imgverify: defineEndpoint({ path: '/api/v4/imgverify', request: auth.ZImgVerifyRequest, response: auth.ZImgVerifyResponse }),
  smsverify: defineEndpoint({ path: '/api/v4/smsverify', request: auth.ZSmsVerifyRequest, response: auth.ZSmsVerifyResponse }),
  // safsmsverify and safforgetpwd take the fields of smsverify and safregister; logout only the token.
  safsmsverify: defineEndpoint({ path: '/api/v4/safsmsverify', request: auth.ZSmsVerifyRequest, response: auth.ZSmsVerifyResponse }),
  loginquick: defineEndpoint({ path: '/api/v4/loginquick', request: auth.ZLoginQuickRequest, response: auth.ZLoginResponse }),
  safloginquick: defineEndpoint({ path: '/api/v4/safloginquick', request: auth.ZSafLoginQuickRequest, response: auth.ZLoginResponse }),
  login: defineEndpoint({ path: '/api/v4/login', request: auth.ZLoginRequest, response: auth.ZLoginResponse }),
  safregister: defineEndpoint({ path: '/api/v4/safregister', request: auth.ZSafRegisterRequest, response: auth.ZEmptyResponse }),
  safforgetpwd: defineEndpoint({ path: '/api/v4/safforgetpwd', request: auth.ZSafRegisterRequest, response: auth.ZEmptyResponse }),
  setpwd: defineEndpoint({ path: '/api/v4/setpwd', request: auth.ZSetPwdRequest, response: auth.ZEmptyResponse }),
  changepwd: defineEndpoint({ path: '/api/v4/changepwd', request: auth.ZChangePwdRequest, response: auth.ZChangePwdResponse }),
  changenick: defineEndpoint({ path: '/api/v4/changenick', request: auth.ZChangeNickRequest, response: auth.ZChangeNickResponse }),
  bindaccount: defineEndpoint({ path: '/api/v4/bindaccount', request: auth.ZBindAccountRequest, response: auth.ZBindAccountResponse }),
  memprofile: defineEndpoint({ path: '/api/v4/memprofile', request: auth.ZMemProfileRequest, response: auth.ZMemProfileResponse }),
  wechatcallback: defineEndpoint({ path: '/api/v4/wechatcallback', request: auth.ZWechatCallbackRequest, response: auth.ZEmptyResponse }),
  logout: defineEndpoint({ path: '/api/v4/logout', request: auth.ZSignedIn, response: auth.ZEmptyResponse }),
  // Decision 0012: the site's own signed calls, each feature's in packages/protocol/src/site/.
  ...drawingsEndpoints,
  ...courseEndpoints,
  ...feedbackEndpoints,
  // Decision 0018: memberships, orders and invoices.
  ...payEndpoints,
  // Decision 0019: online conversion.
  ...conversionEndpoints,
};

/** spec §7: the device and software fields every signed body carries. */
export interface DeviceInfo {
  readonly deviceid: string;
  readonly softname: string;
  readonly softversion: string;
  readonly productid: number | string;
  readonly devicetype: string;
  readonly language: string;
  readonly deviceos: string;
}

/** The device fields of this product's clients (spec §7, §9: product 211, version 5.0) for `deviceid`. */
export function productDevice(deviceid: string, overrides: Partial<Omit<DeviceInfo, 'deviceid'>> = {}): DeviceInfo {
  return {
    deviceid,
    softname: PRODUCT.softname,
    softversion: PRODUCT.version,
    productid: PRODUCT.id,
    devicetype: 'WEB',
    language: 'zh-CN',
    deviceos: 'unknown',
    ...overrides,
  };
}

export interface ApiClientConfig {
  /** Origin of the API, e.g. `https://www.example.com` (the web proxies `/api/*`). */
  readonly baseUrl: string;
  /** The product signing secret (spec §7). */
  readonly secret: string;
  readonly fetch?: FetchLike;
  readonly timeoutMs?: number;
  /** Read at every call, so a changed language or device id is picked up. */
  readonly device: () => DeviceInfo;
  /** Sent as the `X-Domain` header. */
  readonly domain: string;
}

export interface CallOptions {
  readonly encoding?: 'json' | 'form';
  /** Cancels the call (e.g. a cancelled upload); rejects with the `aborted` client code. */
  readonly signal?: AbortSignal;
}

export interface ApiClient {
  call<E extends Endpoint>(endpoint: E, fields: z.input<E['request']>, options?: CallOptions): Promise<z.output<E['response']>>;
  /** Asks the server's time (`GET /api/v4/getutctime`) and keeps the offset; resolves with it. */
  syncTime(): Promise<number>;
  /** The current time in epoch seconds, corrected by the last synchronisation. */
  nowSeconds(): number;
  /** Server minus client clock, in seconds, as last measured. */
  readonly timeOffsetSeconds: number;
}

export interface ApiClientErrorInit {
  readonly code: number;
  readonly message: string;
  /** HTTP status of the answer, when there was one. */
  readonly httpStatus?: number;
  readonly cause?: unknown;
  /** The answer's fields beside code and message (e.g. `retryafter`, `field`). */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** A refused or failed call: the server's code and message, or one of `CLIENT_ERRORS`. */
export class ApiClientError extends Error {
  readonly code: number;
  readonly httpStatus: number | undefined;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(init: ApiClientErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiClientError';
    this.code = init.code;
    this.httpStatus = init.httpStatus;
    this.details = init.details ?? {};
  }

  static of(kind: ClientErrorKind, extra: { httpStatus?: number; cause?: unknown } = {}): ApiClientError {
    return new ApiClientError({ ...CLIENT_ERRORS[kind], ...extra });
  }
}

// wording ours: a refusal whose answer carries no message.
const REFUSED_WITHOUT_MESSAGE = '请求失败，请稍后重试';

function randomNonce(): string {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function formBody(fields: SignableFields): URLSearchParams {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    const text = signedValueOf(value);
    if (text !== undefined) form.append(key, text);
  }
  return form;
}

/**
 * Reads a successful answer with `schema`; a non-10000 code rejects with the server's code and
 * message, anything unreadable with the `badResponse` client code.
 */
function readAnswer<S extends z.ZodType>(schema: S, body: unknown, httpStatus: number): z.output<S> {
  const envelope = ZEnvelope.safeParse(body);
  if (!envelope.success) throw ApiClientError.of('badResponse', { httpStatus, cause: envelope.error });
  if (envelope.data.code !== SUCCESS_CODE) {
    const { code, message, ...details } = envelope.data;
    throw new ApiClientError({ code, message: message === '' ? REFUSED_WITHOUT_MESSAGE : message, httpStatus, details });
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw ApiClientError.of('badResponse', { httpStatus, cause: parsed.error });
  return parsed.data;
}

export function createApiClient(config: ApiClientConfig): ApiClient {
  const fetchFn: FetchLike = config.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const timeoutMs = config.timeoutMs ?? TIMINGS.httpTimeoutMs;
  const baseUrl = config.baseUrl.replace(/\/+$/, '');
  const commonHeaders = { [HEADERS.product]: X_PRODUCT, [HEADERS.domain]: config.domain, Accept: 'application/json' };
  let offsetSeconds = 0;
  let runningSync: Promise<number> | null = null;

  const nowSeconds = () => Math.floor(Date.now() / 1000) + offsetSeconds;

  /** Sends one request and returns its parsed JSON body and status; aborts after `timeoutMs`. */
  async function exchange(path: string, init: RequestInit, signal?: AbortSignal): Promise<{ body: unknown; status: number }> {
    if (signal?.aborted) throw ApiClientError.of('aborted');
    const controller = new AbortController();
    let isTimedOut = false;
    const timer = setTimeout(() => {
      isTimedOut = true;
      controller.abort();
    }, timeoutMs);
    const forwardAbort = () => controller.abort();
    signal?.addEventListener('abort', forwardAbort, { once: true });
    const failure = (cause: unknown, httpStatus?: number) => {
      if (isTimedOut) return ApiClientError.of('timeout', { httpStatus, cause });
      if (signal?.aborted) return ApiClientError.of('aborted', { httpStatus, cause });
      return ApiClientError.of(httpStatus === undefined ? 'network' : 'badResponse', { httpStatus, cause });
    };
    try {
      let response: Response;
      try {
        response = await fetchFn(`${baseUrl}${path}`, { ...init, signal: controller.signal });
      } catch (error) {
        throw failure(error);
      }
      try {
        return { body: await response.json(), status: response.status };
      } catch (error) {
        throw failure(error, response.status);
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forwardAbort);
    }
  }

  function syncTime(): Promise<number> {
    // Concurrent calls refused as stale share one synchronisation.
    runningSync ??= (async () => {
      const sentAt = Date.now();
      const { body, status } = await exchange(endpoints.getutctime.path, { method: 'GET', headers: commonHeaders });
      const answer = readAnswer(endpoints.getutctime.response, body, status);
      // The server read its clock about half-way through the round trip.
      const clientSecondsThen = Math.floor((sentAt + Date.now()) / 2 / 1000);
      offsetSeconds = answer.utctime - clientSecondsThen;
      return answer.utctime;
    })().finally(() => {
      runningSync = null;
    });
    return runningSync;
  }

  async function call<E extends Endpoint>(
    endpoint: E,
    fields: z.input<E['request']>,
    options: CallOptions = {},
  ): Promise<z.output<E['response']>> {
    const request = endpoint.request.safeParse(fields);
    if (!request.success) {
      const message = request.error.issues[0]?.message ?? CLIENT_ERRORS.invalidRequest.message;
      throw new ApiClientError({ code: CLIENT_ERRORS.invalidRequest.code, message, cause: request.error });
    }
    const isForm = options.encoding === 'form';

    const send = async (): Promise<z.output<E['response']>> => {
      const signed = signFields({ ...config.device(), ...request.data, timestamp: nowSeconds(), nonce: randomNonce() }, config.secret);
      const { body, status } = await exchange(
        endpoint.path,
        {
          method: 'POST',
          headers: {
            ...commonHeaders,
            'Content-Type': isForm ? 'application/x-www-form-urlencoded;charset=UTF-8' : 'application/json',
          },
          body: isForm ? formBody(signed) : JSON.stringify(signed),
        },
        options.signal,
      );
      return readAnswer<E['response']>(endpoint.response, body, status);
    };

    try {
      return await send();
    } catch (error) {
      // Decision 0005: a timestamp outside the server's window means our clock is off; re-sync once
      // and retry once.
      if (!(error instanceof ApiClientError) || error.code !== PROTOCOL_ERRORS.staleTimestamp.code) throw error;
      await syncTime();
      return send();
    }
  }

  return {
    call,
    syncTime,
    nowSeconds,
    get timeOffsetSeconds() {
      return offsetSeconds;
    },
  };
}

export { resolveApiUrl, type PageLocation } from './urls';
