import {
  ApiClientError,
  AUTH_ERRORS,
  CLIENT_ERRORS,
  LOGIN_ERRORS,
  LOGIN_FLOW_DELAYS,
  PROTOCOL_ERRORS,
  SMS_FORM_ERROR,
  SMS_FORM_MESSAGES,
  SMS_RESEND_WAIT_SECONDS,
  SUCCESS_CODE,
  TIMINGS,
  loginErrorOf,
  registerErrorOf,
  smsSendErrorOf,
  smsSendOutcome,
  type PopupSize,
  type SmsFormErrorCode,
} from '@xcad/protocol';

// The login modal's rules without React (spec §2 "Login modal", §4, §5, §8, §9): which view follows
// which, the SMS countdown, what each server answer means to the form, the QR polling limits, the
// cached QR session and the post-login redirect. The components only wire timers and calls to these.

export type LoginView =
  'wechat' | 'phone' | 'register' | 'forgot' | 'setPassword' | 'notRegistered' | 'registered' | 'setPasswordDone' | 'passwordChanged';

/** The views a person can go to by a link or a tab; the others follow from a server answer. */
export type NavigableView = 'wechat' | 'phone' | 'register' | 'forgot';

/** spec §2: the phone view's two tabs, SMS quick login (登录/注册) and account-password login. */
export type PhoneTab = 'sms' | 'password';

/** The modal on desktop, or the full /loginPhone page on a phone (which has no QR: it cannot scan itself). */
export type LoginVariant = 'modal' | 'page';

export interface Credentials {
  readonly account: string;
  readonly password: string;
}

export interface LoginFlowState {
  readonly variant: LoginVariant;
  readonly view: LoginView;
  readonly tab: PhoneTab;
  /** The phone of a first SMS login, whose password the set-password view sets. */
  readonly phone: string;
  /** What the success views sign in with (automatically or by '立即登录'). */
  readonly credentials: Credentials | null;
}

export type LoginFlowAction =
  | { readonly type: 'navigate'; readonly view: NavigableView; readonly tab?: PhoneTab }
  | { readonly type: 'selectTab'; readonly tab: PhoneTab }
  /** An SMS login of a user without a password (ispwd 0). */
  | { readonly type: 'firstSmsLogin'; readonly phone: string }
  | { readonly type: 'noticeElapsed' }
  | { readonly type: 'registered'; readonly credentials: Credentials }
  | { readonly type: 'passwordSet'; readonly password: string }
  | { readonly type: 'passwordReset'; readonly credentials: Credentials };

export function initialLoginFlowState(variant: LoginVariant, view: NavigableView = 'wechat'): LoginFlowState {
  return {
    variant,
    view: variant === 'page' && view === 'wechat' ? 'phone' : view,
    tab: 'sms',
    phone: '',
    credentials: null,
  };
}

/** spec §4 transitions. Anything else leaves the state as it is. */
export function loginFlowReducer(state: LoginFlowState, action: LoginFlowAction): LoginFlowState {
  switch (action.type) {
    case 'navigate':
      if (action.view === 'wechat' && state.variant === 'page') return state;
      return { ...state, view: action.view, tab: action.tab ?? state.tab };
    case 'selectTab':
      return state.view === 'phone' ? { ...state, tab: action.tab } : state;
    case 'firstSmsLogin':
      return state.view === 'phone' ? { ...state, view: 'notRegistered', phone: action.phone } : state;
    case 'noticeElapsed':
      return state.view === 'notRegistered' ? { ...state, view: 'setPassword' } : state;
    case 'registered':
      return state.view === 'register' ? { ...state, view: 'registered', credentials: action.credentials } : state;
    case 'passwordSet':
      return state.view === 'setPassword'
        ? { ...state, view: 'setPasswordDone', credentials: { account: state.phone, password: action.password } }
        : state;
    case 'passwordReset':
      return state.view === 'forgot' ? { ...state, view: 'passwordChanged', credentials: action.credentials } : state;
  }
}

export type TimedStep = { readonly delayMs: number; readonly step: 'noticeElapsed' | 'autoLogin' };

/** spec §4: the views that move on by themselves, after how long, and to what. */
export function timedStepOf(view: LoginView): TimedStep | null {
  switch (view) {
    case 'notRegistered':
      return { delayMs: LOGIN_FLOW_DELAYS.notRegisteredNoticeMs, step: 'noticeElapsed' };
    case 'registered':
      return { delayMs: LOGIN_FLOW_DELAYS.autoLoginAfterRegisterMs, step: 'autoLogin' };
    case 'setPasswordDone':
      return { delayMs: LOGIN_FLOW_DELAYS.autoLoginAfterSetPasswordMs, step: 'autoLogin' };
    default:
      return null;
  }
}

// ---- SMS countdown (spec §4, §9) ----

/** When the resend wait that starts now ends. */
export function countdownEndsAt(nowMs: number): number {
  return nowMs + SMS_RESEND_WAIT_SECONDS * 1000;
}

/** Whole seconds left, rounded up so the button never shows 0 while still refusing; 0 when idle. */
export function secondsLeft(endsAtMs: number | null, nowMs: number): number {
  if (endsAtMs === null) return 0;
  return Math.max(0, Math.ceil((endsAtMs - nowMs) / 1000));
}

// ---- What the forms do with a refusal (spec §5, §8) ----

export interface FormFailure {
  readonly formError: SmsFormErrorCode;
  readonly message: string;
}

/** What the SMS sender does with the image captcha after a refused send. */
type CaptchaAction = 'show' | 'replace' | 'keep';

export interface SmsSendFailure extends FormFailure {
  readonly captcha: CaptchaAction;
}

export interface Refusal {
  readonly code: number;
  /** The server's message, or the client's for a failed request. */
  readonly message: string;
}

/** A failed call as the forms read it; anything but an ApiClientError is a network failure. */
export function refusalOf(error: unknown): Refusal {
  if (error instanceof ApiClientError) return { code: error.code, message: error.message };
  return { code: CLIENT_ERRORS.network.code, message: CLIENT_ERRORS.network.message };
}

/**
 * The `retryafter` seconds a 10061 refusal carries beside its code, when the client passes the
 * answer's other fields on as `details`.
 */
export function retryAfterOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('details' in error)) return undefined;
  const { details } = error;
  if (typeof details !== 'object' || details === null || !('retryafter' in details)) return undefined;
  const seconds = Number(details.retryafter);
  return Number.isFinite(seconds) ? seconds : undefined;
}

/** Failures of the request itself, not answers about the phone: never a reason for a captcha. */
function isTransportFailure(code: number): boolean {
  return code < 0 || Object.values(PROTOCOL_ERRORS).some((entry) => entry.code === code);
}

/**
 * spec §8 for smsverify/safsmsverify: codes with a message show it; 10010/19001 and unknown refusals
 * fetch a captcha (a wrong image code replaces it); 10061 waiting longer than the resend wait is the
 * hourly cap and reads as spec §5 error 10.
 */
export function smsSendFailure(refusal: Refusal, isImageShown: boolean, retryAfterSeconds?: number): SmsSendFailure {
  const { code, message } = refusal;
  if (isTransportFailure(code)) return { captcha: 'keep', formError: SMS_FORM_ERROR.networkError, message };
  if (AUTH_ERRORS.locked.codes.some((locked) => locked === code)) {
    return { captcha: 'keep', formError: SMS_FORM_ERROR.tooFrequent, message: SMS_FORM_MESSAGES[SMS_FORM_ERROR.tooFrequent] };
  }
  if (AUTH_ERRORS.invalidField.codes.some((invalid) => invalid === code)) {
    return { captcha: 'keep', formError: SMS_FORM_ERROR.networkError, message };
  }
  const known = smsSendErrorOf(code);
  if (known?.kind === 'tooFrequent') {
    // A wait beyond the 60 s resend wait is the hourly cap.
    if (retryAfterSeconds !== undefined && retryAfterSeconds > SMS_RESEND_WAIT_SECONDS) {
      return { captcha: 'keep', formError: SMS_FORM_ERROR.tooFrequent, message: SMS_FORM_MESSAGES[SMS_FORM_ERROR.tooFrequent] };
    }
    return { captcha: 'keep', formError: SMS_FORM_ERROR.smsWaiting, message: known.message };
  }
  const outcome = smsSendOutcome(code, isImageShown);
  switch (outcome.kind) {
    case 'imageCodeNeeded':
      return { captcha: 'show', formError: outcome.formError, message: outcome.message };
    case 'wrongImageCode':
      return { captcha: 'replace', formError: outcome.formError, message: outcome.message };
    case 'refused':
      return { captcha: 'keep', formError: SMS_FORM_ERROR.networkError, message: outcome.message };
    case 'sent':
      return { captcha: 'keep', formError: SMS_FORM_ERROR.none, message: '' };
  }
}

/** spec §8 login refusals (loginquick, safloginquick): the catalogue's message, else the server's. */
export function smsLoginFailure(refusal: Refusal): FormFailure {
  const known = loginErrorOf(refusal.code);
  if (known?.kind === 'wrongSmsCode' || known?.kind === 'smsCodeError') {
    return { formError: SMS_FORM_ERROR.wrongSmsCode, message: known.message };
  }
  if (known?.kind === 'smsCodeRequired') return { formError: SMS_FORM_ERROR.smsCodeNeeded, message: known.message };
  if (AUTH_ERRORS.locked.codes.some((locked) => locked === refusal.code)) {
    return { formError: SMS_FORM_ERROR.tooFrequent, message: SMS_FORM_MESSAGES[SMS_FORM_ERROR.tooFrequent] };
  }
  return { formError: SMS_FORM_ERROR.networkError, message: known?.message ?? refusal.message };
}

/** spec §8: an account login refusal ('账号密码错误', '账号异常，请联系客服', ...). */
export function passwordLoginMessage(refusal: Refusal): string {
  return loginErrorOf(refusal.code)?.message ?? refusal.message;
}

/** spec §8: safregister reads 19004 as '验证码错误，请重试！'; registered phones keep their send messages. */
export function registerMessage(refusal: Refusal): string {
  return registerErrorOf(refusal.code)?.message ?? smsSendErrorOf(refusal.code)?.message ?? refusal.message;
}

/** safforgetpwd: the SMS-code and account codes read as at login. */
export function forgotPasswordMessage(refusal: Refusal): string {
  return loginErrorOf(refusal.code)?.message ?? smsSendErrorOf(refusal.code)?.message ?? refusal.message;
}

// ---- WeChat QR and QQ popup polling (spec §4, §9) ----

/** spec §4 "retry limit exists": 120 polls (two minutes at 1 s), or 3 failed requests in a row. */
export const LOGIN_POLL_LIMITS = {
  intervalMs: TIMINGS.wechatPollIntervalMs,
  maxPolls: 120,
  maxConsecutiveFailures: 3,
} as const;

const LOGIN_STATE_CODES = {
  pending: AUTH_ERRORS.qrPending.codes[0],
  scanned: AUTH_ERRORS.qrScanned.codes[0],
  expired: AUTH_ERRORS.qrExpired.codes[0],
  illegal: LOGIN_ERRORS.accountAbnormal.codes[0],
} as const;

export type PollStatus = 'pending' | 'scanned' | 'expired' | 'illegal' | 'done';

export interface PollState {
  readonly status: PollStatus;
  readonly polls: number;
  readonly failures: number;
  /** The server's message of a final refusal other than expiry. */
  readonly message: string;
}

export const INITIAL_POLL_STATE: PollState = { status: 'pending', polls: 0, failures: 0, message: '' };

export function isPolling(status: PollStatus): boolean {
  return status === 'pending' || status === 'scanned';
}

/** One wechatstate answer (or failed request) applied to the polling state. */
export function nextPollState(state: PollState, refusal: Refusal): PollState {
  if (!isPolling(state.status)) return state;
  const polls = state.polls + 1;
  const isOverLimit = polls >= LOGIN_POLL_LIMITS.maxPolls;
  const { code } = refusal;
  if (code === SUCCESS_CODE) return { status: 'done', polls, failures: 0, message: '' };
  if (code === LOGIN_STATE_CODES.illegal) return { status: 'illegal', polls, failures: 0, message: refusal.message };
  if (code === LOGIN_STATE_CODES.pending || code === LOGIN_STATE_CODES.scanned) {
    const status = code === LOGIN_STATE_CODES.pending ? 'pending' : 'scanned';
    return { status: isOverLimit ? 'expired' : status, polls, failures: 0, message: '' };
  }
  if (code === LOGIN_STATE_CODES.expired) return { status: 'expired', polls, failures: 0, message: '' };
  if (isTransportFailure(code)) {
    const failures = state.failures + 1;
    const hasGivenUp = isOverLimit || failures >= LOGIN_POLL_LIMITS.maxConsecutiveFailures;
    return { status: hasGivenUp ? 'expired' : state.status, polls, failures, message: '' };
  }
  // Any other refusal (the provider failed, the tag is unknown) ends this QR for good.
  return { status: 'expired', polls, failures: 0, message: refusal.message };
}

// ---- The QR session kept across reopenings of the modal (spec §4: "session cached 60 s") ----

export const LOGIN_SESSION_STORAGE_KEY = 'xcad_wechat_login';

export interface CachedLoginSession {
  readonly logintag: string;
  readonly qrurl: string;
  readonly qrtype: 'link' | 'iframe' | 'popup';
  readonly expiresAtMs: number;
}

/** The session to keep: at most 60 s, and never longer than the server keeps its logintag. */
export function cachedSessionOf(
  answer: { logintag: string; qrurl: string; qrtype: CachedLoginSession['qrtype']; expiresin: number },
  nowMs: number,
): CachedLoginSession {
  const seconds = Math.min(TIMINGS.wechatSessionCacheSeconds, answer.expiresin);
  return { logintag: answer.logintag, qrurl: answer.qrurl, qrtype: answer.qrtype, expiresAtMs: nowMs + seconds * 1000 };
}

/** The stored session while it is fresh; anything unreadable or stale reads as none. */
export function readCachedSession(raw: string | null, nowMs: number): CachedLoginSession | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { logintag, qrurl, qrtype, expiresAtMs } = value as Record<string, unknown>;
  if (typeof logintag !== 'string' || logintag === '' || typeof qrurl !== 'string' || qrurl === '') return null;
  if (qrtype !== 'link' && qrtype !== 'iframe' && qrtype !== 'popup') return null;
  if (typeof expiresAtMs !== 'number' || expiresAtMs <= nowMs) return null;
  // A clock set back must not keep a session alive beyond the cache time.
  if (expiresAtMs - nowMs > TIMINGS.wechatSessionCacheSeconds * 1000) return null;
  return { logintag, qrurl, qrtype, expiresAtMs };
}

// ---- Popup and redirect ----

export interface ScreenBox {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

/** window.open features of a popup centred on the browser window (spec §1: QQ 720x650). */
export function centredPopupFeatures(size: PopupSize, screen: ScreenBox): string {
  const left = Math.max(0, Math.round(screen.left + (screen.width - size.width) / 2));
  const top = Math.max(0, Math.round(screen.top + (screen.height - size.height) / 2));
  return `width=${size.width},height=${size.height},left=${left},top=${top}`;
}

/**
 * Where /loginPhone goes after a login: the `redirect` parameter when it is a path of this site,
 * else home. Browsers read `//host` and `/\host` as other sites, and drop tabs and newlines.
 */
export function safeRedirectPath(redirect: string | null): string {
  if (!redirect || !redirect.startsWith('/') || redirect.startsWith('//')) return '/';
  const hasControlOrBackslash = Array.from(redirect).some((char) => char === '\\' || char.charCodeAt(0) < 0x20 || char === '\u007f');
  if (hasControlOrBackslash) return '/';
  return redirect;
}
