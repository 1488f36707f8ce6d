import { fieldOf, getJson, textFieldOf, type FetchLike } from './oauth.http';
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

export interface QqConnectDeps {
  fetch?: FetchLike;
  timeoutMs?: number;
}

/** The OAuth endpoints report failures as `{error, error_description}`. */
function oauthErrorOf(body: unknown): string | undefined {
  const error = fieldOf(body, 'error');
  if (error === undefined || error === 0 || error === '0') return undefined;
  return `error ${String(error)}: ${textFieldOf(body, 'error_description') ?? ''}`.trim();
}

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
    const token = await getJson(
      this.fetchImpl,
      urlWith(QQ_TOKEN_URL, {
        grant_type: 'authorization_code',
        client_id: this.config.appId,
        client_secret: this.config.appKey,
        code,
        redirect_uri: this.redirectUri,
        fmt: 'json',
      }),
      'oauth2.0/token',
      this.timeoutMs,
    );
    if (token.kind === 'failure') return { ok: false, reason: token.reason, detail: token.detail };
    const tokenError = oauthErrorOf(token.body);
    if (tokenError !== undefined) return { ok: false, reason: 'refused', detail: `oauth2.0/token: ${tokenError}` };
    const accessToken = textFieldOf(token.body, 'access_token');
    if (accessToken === undefined) return { ok: false, reason: 'malformed', detail: 'oauth2.0/token: no access_token' };

    const me = await getJson(this.fetchImpl, urlWith(QQ_ME_URL, { access_token: accessToken, unionid: '1', fmt: 'json' }), 'oauth2.0/me', this.timeoutMs);
    if (me.kind === 'failure') return { ok: false, reason: me.reason, detail: me.detail };
    const meError = oauthErrorOf(me.body);
    if (meError !== undefined) return { ok: false, reason: 'refused', detail: `oauth2.0/me: ${meError}` };
    const openid = textFieldOf(me.body, 'openid');
    if (openid === undefined) return { ok: false, reason: 'malformed', detail: 'oauth2.0/me: no openid' };
    // A token issued to another app must not sign anyone in here.
    if (textFieldOf(me.body, 'client_id') !== this.config.appId) {
      return { ok: false, reason: 'refused', detail: 'oauth2.0/me: the token belongs to another client_id' };
    }

    const user = await getJson(
      this.fetchImpl,
      urlWith(QQ_USER_INFO_URL, { access_token: accessToken, oauth_consumer_key: this.config.appId, openid }),
      'user/get_user_info',
      this.timeoutMs,
    );
    if (user.kind === 'failure') return { ok: false, reason: user.reason, detail: user.detail };
    const ret = fieldOf(user.body, 'ret');
    if (typeof ret !== 'number') return { ok: false, reason: 'malformed', detail: 'user/get_user_info: no ret' };
    if (ret !== 0) return { ok: false, reason: 'refused', detail: `user/get_user_info: ret ${ret}: ${textFieldOf(user.body, 'msg') ?? ''}`.trim() };
    return {
      ok: true,
      profile: {
        provider: 'qq',
        openid,
        unionid: textFieldOf(me.body, 'unionid') ?? null,
        nickname: displayableNickname(fieldOf(user.body, 'nickname'), DEFAULT_NICKNAME),
        avatarUrl: avatarUrlOf(textFieldOf(user.body, 'figureurl_qq_2') ?? fieldOf(user.body, 'figureurl_qq_1')),
      },
    };
  }
}
