import type { FetchLike } from '@xcad/protocol';
import { callVendorJson, vendorObject, vendorText, vendorValue, type VendorDeps } from '../../lib/vendor-http';
import {
  avatarUrlOf,
  displayableNickname,
  OAUTH_HTTP_TIMEOUT_MS,
  type AuthorizeRequest,
  type ExchangeResult,
  type WechatProvider,
} from './oauth.provider';

// WeChat Open Platform website login ("网站应用微信登录"): the qrconnect page shows WeChat's own QR
// code; after the phone confirms, WeChat loads our redirect_uri with `code` and `state` inside the
// frame, and the code buys an access token, the openid/unionid and the user's profile.

export const WECHAT_QRCONNECT_URL = 'https://open.weixin.qq.com/connect/qrconnect';
export const WECHAT_ACCESS_TOKEN_URL = 'https://api.weixin.qq.com/sns/oauth2/access_token';
export const WECHAT_USERINFO_URL = 'https://api.weixin.qq.com/sns/userinfo';

const DEFAULT_NICKNAME = '微信用户';

export interface WechatOpenPlatformConfig {
  appId: string;
  appSecret: string;
  publicOrigin: string;
}

export type WechatOpenPlatformDeps = VendorDeps;

/** WeChat reports failures as `{errcode, errmsg}` with HTTP 200; errcode 0 is not an error. */
const wechatError = { errcode: vendorValue, errmsg: vendorText };
const ZTokenAnswer = vendorObject({ ...wechatError, access_token: vendorText, openid: vendorText, unionid: vendorText });
const ZUserAnswer = vendorObject({
  ...wechatError,
  openid: vendorText,
  unionid: vendorText,
  nickname: vendorValue,
  headimgurl: vendorValue,
});

function wechatErrorOf(body: { errcode?: unknown; errmsg?: string | undefined }): string | undefined {
  if (body.errcode === undefined || body.errcode === 0) return undefined;
  return `errcode ${String(body.errcode)}: ${body.errmsg ?? ''}`.trim();
}

const GET_JSON = { method: 'GET', headers: { accept: 'application/json' } } as const;

export class WechatOpenPlatformProvider implements WechatProvider {
  readonly name = 'open-platform';
  readonly qrtype = 'iframe';
  private readonly fetchImpl: FetchLike;
  private readonly timeoutMs: number;

  constructor(
    private readonly config: WechatOpenPlatformConfig,
    deps: WechatOpenPlatformDeps = {},
  ) {
    this.fetchImpl = deps.fetch ?? fetch;
    this.timeoutMs = deps.timeoutMs ?? OAUTH_HTTP_TIMEOUT_MS;
  }

  authorizeUrl({ logintag, state }: AuthorizeRequest): string {
    const redirectUri = new URL('/weixin-login-callback', this.config.publicOrigin);
    redirectUri.searchParams.set('logintag', logintag);
    // WeChat documents these parameters in this order; self_redirect keeps the redirect inside
    // the frame instead of replacing the top page.
    const parameters: Array<[string, string]> = [
      ['appid', this.config.appId],
      ['redirect_uri', redirectUri.toString()],
      ['response_type', 'code'],
      ['scope', 'snsapi_login'],
      ['state', state],
      ['self_redirect', 'true'],
    ];
    const query = parameters.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&');
    return `${WECHAT_QRCONNECT_URL}?${query}#wechat_redirect`;
  }

  async exchangeCode(code: string): Promise<ExchangeResult> {
    const tokenUrl = new URL(WECHAT_ACCESS_TOKEN_URL);
    tokenUrl.search = new URLSearchParams({
      appid: this.config.appId,
      secret: this.config.appSecret,
      code,
      grant_type: 'authorization_code',
    }).toString();
    const token = await callVendorJson(this.fetchImpl, tokenUrl.toString(), GET_JSON, this.timeoutMs, ZTokenAnswer, {
      label: 'sns/oauth2/access_token',
      serverErrorIsFailure: true,
    });
    if (token.kind === 'failure') return { ok: false, reason: token.reason, detail: token.detail };
    const tokenError = wechatErrorOf(token.body);
    if (tokenError !== undefined) return { ok: false, reason: 'refused', detail: `sns/oauth2/access_token: ${tokenError}` };
    const { access_token: accessToken, openid } = token.body;
    if (accessToken === undefined || openid === undefined) {
      return { ok: false, reason: 'malformed', detail: 'sns/oauth2/access_token: no access_token or openid' };
    }

    const userUrl = new URL(WECHAT_USERINFO_URL);
    userUrl.search = new URLSearchParams({ access_token: accessToken, openid }).toString();
    const user = await callVendorJson(this.fetchImpl, userUrl.toString(), GET_JSON, this.timeoutMs, ZUserAnswer, {
      label: 'sns/userinfo',
      serverErrorIsFailure: true,
    });
    if (user.kind === 'failure') return { ok: false, reason: user.reason, detail: user.detail };
    const userError = wechatErrorOf(user.body);
    if (userError !== undefined) return { ok: false, reason: 'refused', detail: `sns/userinfo: ${userError}` };
    if (user.body.openid !== openid) {
      return { ok: false, reason: 'malformed', detail: 'sns/userinfo: openid differs from the access token' };
    }
    return {
      ok: true,
      profile: {
        provider: 'wechat',
        openid,
        unionid: user.body.unionid ?? token.body.unionid ?? null,
        nickname: displayableNickname(user.body.nickname, DEFAULT_NICKNAME),
        avatarUrl: avatarUrlOf(user.body.headimgurl),
      },
    };
  }
}
