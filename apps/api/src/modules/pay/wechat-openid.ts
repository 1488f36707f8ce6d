import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FetchLike } from '@xcad/protocol';
import { z } from 'zod';
import { callVendorJson, VENDOR_HTTP_TIMEOUT_MS } from '../../lib/vendor-http';

// Decision 0043: JSAPI pays as the buyer's openid under the merchant's official account (公众号).
// The page inside WeChat's browser goes to WECHAT_OPENID_PATH?back=/path; the server sends it to
// WeChat's OAuth (scope snsapi_base: no consent screen), exchanges the code for the openid and keeps
// it in an HttpOnly cookie signed with the server's secret, then returns to `back`. With the
// sandbox taking WeChat Pay the openid is made up at once (a sandbox one), no WeChat involved.

export const OPENID_COOKIE = 'xc_wx_openid';
/** The openid is the buyer's for good; the cookie lasts 30 days. */
export const OPENID_COOKIE_MAX_AGE_SECONDS = 30 * 86_400;
const AUTHORIZE_URL = 'https://open.weixin.qq.com/connect/oauth2/authorize';
const ACCESS_TOKEN_URL = 'https://api.weixin.qq.com/sns/oauth2/access_token';
/** A state older than this (the buyer left WeChat's page open) is refused. */
const STATE_MAX_AGE_SECONDS = 600;

function mac(secret: string, text: string): string {
  return createHmac('sha256', secret).update(`wechat-openid:${text}`).digest('base64url');
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** `openid.mac`: the cookie's value. */
export function sealOpenid(secret: string, openid: string): string {
  return `${openid}.${mac(secret, openid)}`;
}

/** The openid of a cookie value, or null when it is missing or not ours. */
export function openidOf(secret: string, cookie: string | undefined): string | null {
  if (cookie === undefined) return null;
  const dot = cookie.lastIndexOf('.');
  if (dot <= 0) return null;
  const openid = cookie.slice(0, dot);
  if (!/^[\w-]{1,128}$/.test(openid)) return null;
  return sameText(cookie.slice(dot + 1), mac(secret, openid)) ? openid : null;
}

/** A path of this site to return to (never another host: `//evil` and `/\evil` are refused). */
export function safeBackPath(back: unknown): string {
  if (typeof back !== 'string' || !/^\/(?![/\\])[\w\-./?=&%~]*$/.test(back) || back.length > 512) return '/';
  return back;
}

/** OAuth's `state`: where to return, when, and a mac, so nobody else can send a buyer elsewhere. */
export function stateOf(secret: string, back: string, nowSeconds: number): string {
  const body = Buffer.from(JSON.stringify([back, nowSeconds])).toString('base64url');
  return `${body}.${mac(secret, body)}`;
}

export function backOfState(secret: string, state: unknown, nowSeconds: number): string | null {
  if (typeof state !== 'string') return null;
  const [body, signature] = state.split('.');
  if (body === undefined || signature === undefined || !sameText(signature, mac(secret, body))) return null;
  try {
    const [back, at] = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as [unknown, unknown];
    if (typeof at !== 'number' || nowSeconds - at > STATE_MAX_AGE_SECONDS) return null;
    return safeBackPath(back);
  } catch {
    return null;
  }
}

/** WeChat's authorize page for snsapi_base (the fragment is WeChat's own requirement). */
export function authorizeUrl(appid: string, redirectUri: string, state: string): string {
  const query = new URLSearchParams({ appid, redirect_uri: redirectUri, response_type: 'code', scope: 'snsapi_base', state });
  return `${AUTHORIZE_URL}?${query.toString()}#wechat_redirect`;
}

/** A made-up openid for the sandbox (it only has to be stable for the cookie's life). */
export function sandboxOpenid(): string {
  return `sandbox-${randomBytes(12).toString('hex')}`;
}

const ZAccessToken = z.object({ openid: z.string().optional(), errcode: z.number().optional(), errmsg: z.string().optional() });

/** The code WeChat returned, exchanged for the openid (sns/oauth2/access_token); a string says why not. */
export async function exchangeCode(
  config: { appid: string; secret: string },
  code: string,
  deps: { fetch?: FetchLike; timeoutMs?: number } = {},
): Promise<{ openid: string } | string> {
  const query = new URLSearchParams({ appid: config.appid, secret: config.secret, code, grant_type: 'authorization_code' });
  const answer = await callVendorJson(
    deps.fetch ?? fetch,
    `${ACCESS_TOKEN_URL}?${query.toString()}`,
    { method: 'GET', headers: { Accept: 'application/json' } },
    deps.timeoutMs ?? VENDOR_HTTP_TIMEOUT_MS,
    ZAccessToken,
    { label: 'sns/oauth2/access_token', serverErrorIsFailure: true },
  );
  if (answer.kind === 'failure') return answer.detail;
  const { openid, errcode, errmsg } = answer.body;
  if (openid === undefined || openid === '') return `errcode ${errcode ?? '?'}: ${errmsg ?? 'no openid'}`;
  return { openid };
}
