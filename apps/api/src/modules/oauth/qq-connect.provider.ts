import type { FetchLike } from '@xcad/protocol';
import { callVendorJson, vendorObject, vendorText, vendorValue, type VendorDeps } from '../../lib/vendor-http';
import {
  avatarUrlOf,
  displayableNickname,
  OAUTH_HTTP_TIMEOUT_MS,
  qqCallbackUrl,
  type AuthorizeRequest,
  type ExchangeResult,
  type QqProvider,
} from './oauth.provider';

// QQ Connect OAuth 2.0 (wiki.connect.qq.com), Authorization Code grant: the popup authorises at
// graph.qq.com, which sends it back to /api/oauth/qq/callback; the code buys an access token, the
// token names the openid (and unionid), and get_user_info gives the nickname and avatar.

export const QQ_AUTHORIZE_URL = 'https://graph.qq.com/oauth2.0/authorize';
export const QQ_TOKEN_URL = 'https://graph.qq.com/oauth2.0/token';
export const QQ_ME_URL = 'https://graph.qq.com/oauth2.0/me';
export const QQ_USER_INFO_URL = 'https://graph.qq.com/user/get_user_info';

const DEFAULT_NICKNAME = 'QQ用户';

export interface QqConnectConfig {
  appId: string;
  appKey: string;
  publicOrigin: string;
}

export type QqConnectDeps = VendorDeps;

/** The OAuth endpoints report failures as `{error, error_description}`. */
const oauthError = { error: vendorValue, error_description: vendorText };
const ZTokenAnswer = vendorObject({ ...oauthError, access_token: vendorText });
const ZMeAnswer = vendorObject({ ...oauthError, openid: vendorText, unionid: vendorText, client_id: vendorText });
const ZUserAnswer = vendorObject({
  ret: vendorValue,
  msg: vendorText,
  nickname: vendorValue,
  figureurl_qq_1: vendorValue,
  figureurl_qq_2: vendorText,
});

function oauthErrorOf(body: { error?: unknown; error_description?: string | undefined }): string | undefined {
  const { error } = body;
  if (error === undefined || error === 0 || error === '0') return undefined;
  return `error ${String(error)}: ${body.error_description ?? ''}`.trim();
}

const GET_JSON = { method: 'GET', headers: { accept: 'application/json' } } as const;

function urlWith(base: string, parameters: Record<string, string>): string {
  const url = new URL(base);
  url.search = new URLSearchParams(parameters).toString();
  return url.toString();
}

export class QqConnectProvider implements QqProvider {
  readonly name = 'qq-connect';
  private readonly fetchImpl: FetchLike;
  private readonly timeoutMs: number;
  private readonly redirectUri: string;

  constructor(
    private readonly config: QqConnectConfig,
    deps: QqConnectDeps = {},
  ) {
    this.fetchImpl = deps.fetch ?? fetch;
    this.timeoutMs = deps.timeoutMs ?? OAUTH_HTTP_TIMEOUT_MS;
    this.redirectUri = qqCallbackUrl(config.publicOrigin);
  }

  authorizeUrl({ state }: AuthorizeRequest): string {
    return urlWith(QQ_AUTHORIZE_URL, {
      response_type: 'code',
      client_id: this.config.appId,
      redirect_uri: this.redirectUri,
      state,
      scope: 'get_user_info',
    });
  }

  async exchangeCode(code: string): Promise<ExchangeResult> {
    const token = await callVendorJson(
      this.fetchImpl,
      urlWith(QQ_TOKEN_URL, {
        grant_type: 'authorization_code',
        client_id: this.config.appId,
        client_secret: this.config.appKey,
        code,
        redirect_uri: this.redirectUri,
        fmt: 'json',
      }),
      GET_JSON,
      this.timeoutMs,
      ZTokenAnswer,
      { label: 'oauth2.0/token', serverErrorIsFailure: true },
    );
    if (token.kind === 'failure') return { ok: false, reason: token.reason, detail: token.detail };
    const tokenError = oauthErrorOf(token.body);
    if (tokenError !== undefined) return { ok: false, reason: 'refused', detail: `oauth2.0/token: ${tokenError}` };
    const accessToken = token.body.access_token;
    if (accessToken === undefined) return { ok: false, reason: 'malformed', detail: 'oauth2.0/token: no access_token' };

    const me = await callVendorJson(
      this.fetchImpl,
      urlWith(QQ_ME_URL, { access_token: accessToken, unionid: '1', fmt: 'json' }),
      GET_JSON,
      this.timeoutMs,
      ZMeAnswer,
      {
        label: 'oauth2.0/me',
        serverErrorIsFailure: true,
      },
    );
    if (me.kind === 'failure') return { ok: false, reason: me.reason, detail: me.detail };
    const meError = oauthErrorOf(me.body);
    if (meError !== undefined) return { ok: false, reason: 'refused', detail: `oauth2.0/me: ${meError}` };
    const openid = me.body.openid;
    if (openid === undefined) return { ok: false, reason: 'malformed', detail: 'oauth2.0/me: no openid' };
    // A token issued to another app must not sign anyone in here.
    if (me.body.client_id !== this.config.appId) {
      return { ok: false, reason: 'refused', detail: 'oauth2.0/me: the token belongs to another client_id' };
    }

    const user = await callVendorJson(
      this.fetchImpl,
      urlWith(QQ_USER_INFO_URL, { access_token: accessToken, oauth_consumer_key: this.config.appId, openid }),
      GET_JSON,
      this.timeoutMs,
      ZUserAnswer,
      { label: 'user/get_user_info', serverErrorIsFailure: true },
    );
    if (user.kind === 'failure') return { ok: false, reason: user.reason, detail: user.detail };
    const { ret } = user.body;
    if (typeof ret !== 'number') return { ok: false, reason: 'malformed', detail: 'user/get_user_info: no ret' };
    if (ret !== 0) return { ok: false, reason: 'refused', detail: `user/get_user_info: ret ${ret}: ${user.body.msg ?? ''}`.trim() };
    return {
      ok: true,
      profile: {
        provider: 'qq',
        openid,
        unionid: me.body.unionid ?? null,
        nickname: displayableNickname(user.body.nickname, DEFAULT_NICKNAME),
        avatarUrl: avatarUrlOf(user.body.figureurl_qq_2 ?? user.body.figureurl_qq_1),
      },
    };
  }
}
