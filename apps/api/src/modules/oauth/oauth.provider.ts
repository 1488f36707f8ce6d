import type { IdentityProfile } from '../auth/auth.contract';

// WeChat and QQ sign-in behind one interface each (decision 0010); the
// implementation is chosen by WECHAT_PROVIDER / QQ_PROVIDER (oauth.factory.ts).

export interface AuthorizeRequest {
  logintag: string;
  /** The OAuth `state` guard the provider hands back with the code. */
  state: string;
}

/**
 * Why an exchange failed: the provider said no (bad or used code, revoked app), it could not be
 * reached in time or answered 5xx, or its answer could not be read.
 */
export type ExchangeFailureReason = 'refused' | 'unavailable' | 'malformed';

export type ExchangeResult =
  | { ok: true; profile: IdentityProfile }
  /** `detail` goes to the log only; it never carries tokens or secrets. */
  | { ok: false; reason: ExchangeFailureReason; detail: string };

interface OAuthProvider {
  readonly name: string;
  /** The URL the QR code shows or the popup opens. */
  authorizeUrl(request: AuthorizeRequest): string;
  /** Never throws: every failure comes back as `{ ok: false }`. */
  exchangeCode(code: string): Promise<ExchangeResult>;
}

export interface WechatProvider extends OAuthProvider {
  readonly name: 'dev' | 'open-platform';
  /** How the login modal shows `authorizeUrl`: drawn as a QR code, or WeChat's own QR page in a frame. */
  readonly qrtype: 'link' | 'iframe';
}

export interface QqProvider extends OAuthProvider {
  readonly name: 'dev' | 'qq-connect';
}

/** How long a provider call may take before the login counts as failed. */
export const OAUTH_HTTP_TIMEOUT_MS = 5_000;

/** Where QQ sends the popup back; registered as the app's callback at QQ Connect. */
export const QQ_CALLBACK_PATH = '/api/oauth/qq/callback';

export function qqCallbackUrl(publicOrigin: string): string {
  return new URL(QQ_CALLBACK_PATH, publicOrigin).toString();
}

const NICKNAME_MAX_CODE_POINTS = 20;

/**
 * A provider nickname as the site may show it: no control characters or angle brackets (the
 * same rule as ZNickname), at most 20 characters, `fallback` when nothing is left.
 */
export function displayableNickname(raw: unknown, fallback: string): string {
  if (typeof raw !== 'string') return fallback;
  const cleaned = Array.from(raw.replace(/[\p{Cc}<>]/gu, '').trim())
    .slice(0, NICKNAME_MAX_CODE_POINTS)
    .join('')
    .trim();
  return cleaned === '' ? fallback : cleaned;
}

/** An http(s) avatar URL, or '' for anything else (the contract's "none"). */
export function avatarUrlOf(raw: unknown): string {
  if (typeof raw !== 'string' || raw === '') return '';
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : '';
  } catch {
    return '';
  }
}
