import { PROTOCOL_ERRORS, SUCCESS_CODE, type ProtocolErrorKind } from './envelope';

// The error catalogue of spec §5 and §8. Server codes come in groups that share one meaning; the
// first code of a group is the one our API answers with, the others are recognised because the
// vendor's existing servers send them.

export interface CodeGroup {
  readonly codes: readonly [number, ...number[]];
  readonly message: string;
}

export interface CodeMatch<K extends string> {
  readonly kind: K;
  readonly code: number;
  readonly message: string;
}

function matcher<K extends string>(groups: Record<K, CodeGroup>): (code: number) => CodeMatch<K> | undefined {
  const byCode = new Map<number, CodeMatch<K>>();
  for (const kind of Object.keys(groups) as K[]) {
    const group = groups[kind];
    for (const code of group.codes) byCode.set(code, { kind, code, message: group.message });
  }
  return (code) => byCode.get(code);
}

/** A single entry to answer with: the group's first code and its message. */
export function primaryOf(group: CodeGroup): { code: number; message: string } {
  return { code: group.codes[0], message: group.message };
}

/** spec §8: answers of smsverify / safsmsverify. */
export const SMS_SEND_ERRORS = {
  // wording ours: spec §8 shows none
  imageCodeWrong: { codes: [10005], message: '图形验证码错误，请重新输入' },
  accountRegistered: { codes: [10007], message: '该账号已被注册' },
  imageCodeInvalid: { codes: [10008, 10009, 10011, 18006], message: '请填写正确的图形验证码' },
  // The server wants a (new) image captcha before it sends. wording ours: spec §8 shows none
  imageCodeRequired: { codes: [10010, 19001], message: '请输入图形验证码' },
  // wording ours: spec §8 shows none
  codeWrongOrTooFrequent: { codes: [10015], message: '验证码错误或操作过于频繁，请稍后再试' },
  tooFrequent: { codes: [10061, 28001, 28002, 23019], message: '短信发送太多频繁，请稍等' },
  phoneRegistered: { codes: [19003], message: '当前号码已被注册' },
  // The SMS gateway failed; nothing was sent and the user may retry at once. code and wording ours
  sendFailed: { codes: [10016], message: '短信发送失败，请稍后重试' },
  accountNotRegistered: { codes: [19002], message: '当前账号未注册，请先注册！' },
} as const satisfies Record<string, CodeGroup>;

export type SmsSendErrorKind = keyof typeof SMS_SEND_ERRORS;
export const smsSendErrorOf = matcher<SmsSendErrorKind>(SMS_SEND_ERRORS);

/** spec §8: answers of login, loginquick, safloginquick. */
export const LOGIN_ERRORS = {
  wrongSmsCode: { codes: [12007, 12025, 19004, 19311, 19313], message: '请输入正确的验证码' },
  smsCodeError: { codes: [19312], message: '验证码错误！' },
  // wording ours: spec §8 shows none
  smsCodeRequired: { codes: [19310], message: '请先获取短信验证码' },
  accountAbnormal: { codes: [10063], message: '账号异常，请联系客服' },
  // code ours: spec §8 gives the message of a failed account login but no code
  wrongAccountOrPassword: { codes: [12001], message: '账号密码错误' },
} as const satisfies Record<string, CodeGroup>;

export type LoginErrorKind = keyof typeof LOGIN_ERRORS;
export const loginErrorOf = matcher<LoginErrorKind>(LOGIN_ERRORS);

/** spec §8: answers of safregister (19004 reads differently here than at login). */
export const REGISTER_ERRORS = {
  wrongSmsCode: { codes: [19004], message: '验证码错误，请重试！' },
} as const satisfies Record<string, CodeGroup>;

export type RegisterErrorKind = keyof typeof REGISTER_ERRORS;
export const registerErrorOf = matcher<RegisterErrorKind>(REGISTER_ERRORS);

/**
 * spec §7, §8: codes of taskstate and uploadfile. 20000 (still processing) is ours: the spec
 * names the done and failed codes only.
 */
export const TASK_STATE_CODES = {
  done: [10000, 19000],
  processing: [20000],
  continueUpload: [11000],
  failed: [18000, 19026],
} as const satisfies Record<string, readonly number[]>;

export type TaskState = 'done' | 'processing' | 'failed' | 'continue' | 'unknown';

export function taskStateOf(code: number): TaskState {
  const has = (codes: readonly number[]) => codes.includes(code);
  if (has(TASK_STATE_CODES.done)) return 'done';
  if (has(TASK_STATE_CODES.processing)) return 'processing';
  if (has(TASK_STATE_CODES.continueUpload)) return 'continue';
  if (has(TASK_STATE_CODES.failed)) return 'failed';
  return 'unknown';
}

/** spec §5: error codes of the SMS login form. */
export const SMS_FORM_ERROR = {
  none: 0,
  wrongPhone: 1,
  smsSending: 2,
  smsWaiting: 3,
  imageCodeNeeded: 4,
  emptyPhone: 5,
  emptySms: 6,
  emptyImageCode: 7,
  wrongSmsCode: 8,
  wrongImageCode: 9,
  tooFrequent: 10,
  smsCodeNeeded: 11,
  agreementNotAccepted: 12,
  networkError: 13,
} as const;

export type SmsFormErrorCode = (typeof SMS_FORM_ERROR)[keyof typeof SMS_FORM_ERROR];

export const SMS_FORM_MESSAGES: Record<SmsFormErrorCode, string> = {
  0: '',
  1: '请您填写正确的11位手机号',
  // wording ours: spec §5 shows none
  2: '短信验证码发送中，请稍候',
  // wording ours: spec §5 shows none
  3: '验证码已发送，请稍后再试',
  // wording ours: spec §5 shows none
  4: '请输入图形验证码',
  // wording ours: spec §5 shows none
  5: '请输入手机号',
  6: '请输入验证码',
  // wording ours: spec §5 shows none
  7: '图形验证码不能为空',
  8: '请输入正确的验证码',
  9: '请填写正确的图形验证码',
  10: '操作频繁，请1小时后再试',
  // wording ours: spec §5 shows none
  11: '请先获取短信验证码',
  // spec §5: codes 12 and 13 exist but their wording is not shown; ours, with meanings such a form
  // needs beside 1-11 (the agreement box and a failed request).
  12: '请阅读并同意用户协议',
  13: '网络异常，请稍后重试',
};

/** spec §5: error codes of the password login form. */
export const PASSWORD_FORM_ERROR = {
  none: 0,
  wrongPhone: 1,
  emptyPhone: 5,
  wrongPass: 10,
  wrongPassword: 11,
  emptyPassword: 12,
} as const;

export type PasswordFormErrorCode = (typeof PASSWORD_FORM_ERROR)[keyof typeof PASSWORD_FORM_ERROR];

export const PASSWORD_FORM_MESSAGES: Record<PasswordFormErrorCode, string> = {
  0: '',
  // The account may be a mobile number or an e-mail address (spec §5). wording ours: spec §5 shows none
  1: '请输入正确的手机号或邮箱',
  // wording ours: spec §5 shows none
  5: '请输入手机号或邮箱',
  // The password does not have the accepted 6-20 length. wording ours: spec §5 shows none
  10: '请输入6-20位密码',
  // The server refused the account and password (spec §8).
  11: '账号密码错误',
  // wording ours: spec §5 shows none
  12: '密码不能为空',
};

/**
 * Codes the typed client (client.ts) uses when no server answer could be read. Negative so they
 * can never clash with a server code.
 */
export const CLIENT_ERRORS = {
  // Client-side failures; the spec has no wording for them (ours throughout this table).
  network: { code: -1, message: '网络异常，请检查网络后重试' },
  timeout: { code: -2, message: '请求超时，请稍后重试' },
  badResponse: { code: -3, message: '服务器响应异常，请稍后重试' },
  invalidRequest: { code: -4, message: '请求参数错误' },
  aborted: { code: -5, message: '请求已取消' },
} as const;

export type ClientErrorKind = keyof typeof CLIENT_ERRORS;

export type SmsSendOutcome =
  | { readonly kind: 'sent' }
  /** Fetch an image captcha (a fresh one if one is shown) and ask for its value. */
  | { readonly kind: 'imageCodeNeeded'; readonly formError: SmsFormErrorCode; readonly message: string }
  /** The image code was wrong: show the message and replace the image. */
  | { readonly kind: 'wrongImageCode'; readonly formError: SmsFormErrorCode; readonly message: string }
  /** Any other refusal: show the message. */
  | { readonly kind: 'refused'; readonly code: number; readonly message: string };

const IMAGE_CODE_WRONG_KINDS: readonly SmsSendErrorKind[] = ['imageCodeWrong', 'imageCodeInvalid'];

/**
 * What the SMS form does with smsverify's answer. Codes with their own message (§8) show it; the
 * rest follow §8's rule: "any non-10000 code on send while an image is shown: wrong image code;
 * without an image: an image captcha is fetched".
 */
export function smsSendOutcome(code: number, isImageShown: boolean): SmsSendOutcome {
  if (code === SUCCESS_CODE) return { kind: 'sent' };
  const known = smsSendErrorOf(code);
  if (known && IMAGE_CODE_WRONG_KINDS.includes(known.kind)) {
    return { kind: 'wrongImageCode', formError: SMS_FORM_ERROR.wrongImageCode, message: known.message };
  }
  if (known && known.kind !== 'imageCodeRequired') return { kind: 'refused', code, message: known.message };
  if (isImageShown) {
    return { kind: 'wrongImageCode', formError: SMS_FORM_ERROR.wrongImageCode, message: SMS_SEND_ERRORS.imageCodeInvalid.message };
  }
  return { kind: 'imageCodeNeeded', formError: SMS_FORM_ERROR.imageCodeNeeded, message: SMS_FORM_MESSAGES[4] };
}

export interface ApiErrorInit {
  readonly code: number;
  readonly userMessage: string;
  /** Business refusals travel with HTTP 200 (decision 0004). */
  readonly httpStatus?: number;
  /** What goes to the log; defaults to the user message. Never sent to the client. */
  readonly logMessage?: string;
  readonly cause?: unknown;
  /** Further answer fields beside code and message (e.g. `field`, `retryafter`). */
  readonly extra?: Readonly<Record<string, string | number | boolean>>;
}

/** An error the API answers with: code, HTTP status, a log message and the user-facing message. */
export class ApiError extends Error {
  readonly code: number;
  readonly httpStatus: number;
  readonly logMessage: string;
  readonly userMessage: string;
  readonly extra: Readonly<Record<string, string | number | boolean>>;

  constructor(init: ApiErrorInit) {
    const logMessage = init.logMessage ?? init.userMessage;
    super(logMessage, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.code = init.code;
    this.httpStatus = init.httpStatus ?? 200;
    this.logMessage = logMessage;
    this.userMessage = init.userMessage;
    this.extra = init.extra ?? {};
  }

  /** A failure of the request contract (malformed, unsigned, stale, replayed, ...). */
  static protocol(kind: ProtocolErrorKind, logMessage?: string): ApiError {
    const entry = PROTOCOL_ERRORS[kind];
    return new ApiError({ code: entry.code, httpStatus: entry.status, userMessage: entry.message, logMessage });
  }

  /** A business refusal from one of the catalogue's groups, answered with HTTP 200. */
  static business(group: CodeGroup, logMessage?: string, extra?: ApiErrorInit['extra']): ApiError {
    const { code, message } = primaryOf(group);
    return new ApiError({ code, userMessage: message, logMessage, extra });
  }

  /** The flat JSON body sent to the client. */
  toEnvelope(): { code: number; message: string } & Record<string, string | number | boolean> {
    return { ...this.extra, code: this.code, message: this.userMessage };
  }
}
