import type { IdentityProvider } from '@xcad/db';
import {
  displayableNickname,
  qqCallbackUrl,
  type AuthorizeRequest,
  type ExchangeResult,
  type QqProvider,
  type WechatProvider,
} from './oauth.provider';

// The dev providers (the default): the site goes through the same steps as with the real ones (a
// QR to scan from a second device, a popup to authorise in), with no third party involved. Their
// helper routes (oauth-dev.routes.ts) exist only while they are selected.

const DEV_CODE_PREFIX = 'dev-';
const DEV_OPENID = /^[A-Za-z0-9_-]{1,128}$/;

/** Nickname of the QQ dev page's test user, and of a dev openid that does not spell one. */
export const DEV_DEFAULT_NICKNAMES: Record<IdentityProvider, string> = { wechat: '微信测试用户', qq: 'QQ测试用户' };

/**
 * The dev openid of a nickname: the nickname itself, base64url-encoded, so a dev code carries the
 * name the tester typed (the same name is the same test user) and the exchange needs no state.
 */
export function devOpenidOf(nickname: string): string {
  return Buffer.from(nickname, 'utf8').toString('base64url');
}

/** The authorisation code the dev QQ page hands back for `openid`. */
export function devCodeOf(openid: string): string {
  return `${DEV_CODE_PREFIX}${openid}`;
}

function nicknameOfDevOpenid(openid: string, provider: IdentityProvider): string {
  const decoded = Buffer.from(openid, 'base64url').toString('utf8');
  // Openids typed by hand (the WeChat dev confirm takes any) do not decode to a name.
  const isSpelledName = devOpenidOf(decoded) === openid && !decoded.includes('\ufffd');
  return displayableNickname(isSpelledName ? decoded : '', DEV_DEFAULT_NICKNAMES[provider]);
}

function exchangeDevCode(provider: IdentityProvider, code: string): ExchangeResult {
  const openid = code.startsWith(DEV_CODE_PREFIX) ? code.slice(DEV_CODE_PREFIX.length) : '';
  if (!DEV_OPENID.test(openid)) return { ok: false, reason: 'refused', detail: 'not a dev code' };
  return { ok: true, profile: { provider, openid, unionid: null, nickname: nicknameOfDevOpenid(openid, provider), avatarUrl: '' } };
}

export class WechatDevProvider implements WechatProvider {
  readonly name = 'dev';
  readonly qrtype = 'link';

  constructor(private readonly publicOrigin: string) {}

  /** spec §2 /scanlogin/{logintag}: the page a phone opens from the QR to confirm the login. */
  authorizeUrl({ logintag }: AuthorizeRequest): string {
    return new URL(`/scanlogin/${encodeURIComponent(logintag)}`, this.publicOrigin).toString();
  }

  async exchangeCode(code: string): Promise<ExchangeResult> {
    return exchangeDevCode('wechat', code);
  }
}

export const QQ_DEV_AUTHORIZE_PATH = '/api/dev/qq/authorize';

export class QqDevProvider implements QqProvider {
  readonly name = 'dev';
  readonly redirectUri: string;

  constructor(private readonly publicOrigin: string) {
    this.redirectUri = qqCallbackUrl(publicOrigin);
  }

  authorizeUrl({ state }: AuthorizeRequest): string {
    const url = new URL(QQ_DEV_AUTHORIZE_PATH, this.publicOrigin);
    url.search = new URLSearchParams({ state, redirect_uri: this.redirectUri }).toString();
    return url.toString();
  }

  async exchangeCode(code: string): Promise<ExchangeResult> {
    return exchangeDevCode('qq', code);
  }
}
