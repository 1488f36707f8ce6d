import { AUTH_ERRORS, PROTOCOL_ERRORS, SUCCESS_CODE } from '@xcad/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, signedCall, type TestApp } from '../../test-app';
import { fakeProvider, type FakeAnswer, type FakeProvider } from './fake-provider.testing';
import { QQ_ME_URL, QQ_TOKEN_URL, QQ_USER_INFO_URL } from './qq-connect.provider';
import { WECHAT_ACCESS_TOKEN_URL, WECHAT_USERINFO_URL } from './wechat-open-platform.provider';

// The real WeChat and QQ adapters inside the app, their servers faked offline (no network).

const ORIGIN = 'https://www.example.com';
const REAL_PROVIDERS = {
  PUBLIC_ORIGIN: ORIGIN,
  WECHAT_PROVIDER: 'open-platform',
  WECHAT_APP_ID: 'wx0123456789abcdef',
  WECHAT_APP_SECRET: 'wechat-secret',
  QQ_PROVIDER: 'qq-connect',
  QQ_APP_ID: '101234567',
  QQ_APP_KEY: 'qq-app-key',
};
const OK = { code: SUCCESS_CODE, message: expect.any(String) };
const PENDING = { code: AUTH_ERRORS.qrPending.codes[0], message: AUTH_ERRORS.qrPending.message };
const EXPIRED = { code: AUTH_ERRORS.qrExpired.codes[0], message: AUTH_ERRORS.qrExpired.message };
const PROVIDER_FAILED = { code: AUTH_ERRORS.providerFailed.codes[0], message: AUTH_ERRORS.providerFailed.message };
const NOT_FOUND = { code: PROTOCOL_ERRORS.notFound.code, message: PROTOCOL_ERRORS.notFound.message };

const WECHAT_TOKEN = {
  access_token: 'WX_ACCESS',
  expires_in: 7200,
  refresh_token: 'R',
  openid: 'oWx_openid_1',
  scope: 'snsapi_login',
  unionid: 'oUnion_1',
};
const WECHAT_USER = {
  openid: 'oWx_openid_1',
  nickname: '微信张三',
  headimgurl: 'https://thirdwx.qlogo.cn/mmopen/abc/132',
  unionid: 'oUnion_1',
};
const QQ_ME = { client_id: '101234567', openid: 'QQOPENID0001', unionid: 'QQUNION1' };
const QQ_USER = {
  ret: 0,
  msg: '',
  nickname: 'QQ李四',
  figureurl_qq_1: 'http://thirdqq.qlogo.cn/a/40',
  figureurl_qq_2: 'http://thirdqq.qlogo.cn/a/100',
};

function happyAnswers(): Record<string, FakeAnswer> {
  return {
    [WECHAT_ACCESS_TOKEN_URL]: { json: WECHAT_TOKEN },
    [WECHAT_USERINFO_URL]: { json: WECHAT_USER },
    [QQ_TOKEN_URL]: { json: { access_token: 'QQ_ACCESS', expires_in: 7776000, refresh_token: 'R' } },
    [QQ_ME_URL]: { json: QQ_ME },
    [QQ_USER_INFO_URL]: { json: QQ_USER },
  };
}

let t: TestApp;
let answers: Record<string, FakeAnswer>;
let provider: FakeProvider;

beforeAll(async () => {
  answers = happyAnswers();
  provider = fakeProvider(answers);
  // The adapters take the global fetch when the app builds them.
  vi.stubGlobal('fetch', provider.fetch);
  t = await createTestApp(REAL_PROVIDERS);
});

afterAll(async () => {
  await t.close();
  vi.unstubAllGlobals();
});

beforeEach(() => {
  Object.assign(answers, happyAnswers());
  provider.calls.length = 0;
});

async function guid(fields: Record<string, string> = {}) {
  const { body } = await signedCall(t, '/api/v4/wechatguid', fields);
  expect(body).toMatchObject(OK);
  return body as { logintag: string; qrurl: string; qrtype: string };
}

async function poll(logintag: string) {
  return signedCall(t, '/api/v4/wechatstate', { logintag });
}

async function callback(fields: { logintag: string; code: string; state: string }) {
  return (await signedCall(t, '/api/v4/wechatcallback', fields)).body;
}

/** A WeChat QR login and the `state` its qrconnect URL carries. */
async function wechatLogin() {
  const started = await guid();
  const qrurl = new URL(started.qrurl);
  return { logintag: started.logintag, state: qrurl.searchParams.get('state') ?? '', qrurl };
}

describe('WeChat Open Platform QR login', () => {
  it("shows WeChat's qrconnect page in a frame that returns to /weixin-login-callback", async () => {
    const { logintag, state, qrurl } = await wechatLogin();
    expect(`${qrurl.origin}${qrurl.pathname}`).toBe('https://open.weixin.qq.com/connect/qrconnect');
    expect(qrurl.hash).toBe('#wechat_redirect');
    expect(Object.fromEntries(qrurl.searchParams)).toEqual({
      appid: 'wx0123456789abcdef',
      redirect_uri: `${ORIGIN}/weixin-login-callback?logintag=${logintag}`,
      response_type: 'code',
      scope: 'snsapi_login',
      state,
      self_redirect: 'true',
    });
    expect(state).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('confirms the login with the right state, and wechatstate then signs the WeChat user in', async () => {
    const { logintag, state } = await wechatLogin();
    expect(await callback({ logintag, code: 'CODE_1', state })).toEqual(OK);
    expect(provider.calls[0]?.searchParams.get('code')).toBe('CODE_1');
    const signedIn = await poll(logintag);
    expect(signedIn.body).toMatchObject({ ...OK, userinfo: { nickname: '微信张三', logintype: '1' } });
    // The callback page cannot be replayed once the login moved on.
    expect(await callback({ logintag, code: 'CODE_1', state })).toEqual(EXPIRED);
  });

  it('refuses a wrong state without asking WeChat, and the login can still complete', async () => {
    const { logintag, state } = await wechatLogin();
    expect(await callback({ logintag, code: 'CODE_2', state: `${state.slice(0, -1)}${state.endsWith('x') ? 'y' : 'x'}` })).toEqual(
      PROVIDER_FAILED,
    );
    expect(await callback({ logintag, code: 'CODE_2', state: 'short' })).toEqual(PROVIDER_FAILED);
    expect(provider.calls).toHaveLength(0);
    expect((await poll(logintag)).body).toEqual(PENDING);
    expect(await callback({ logintag, code: 'CODE_2', state })).toEqual(OK);
  });

  it('answers 19009 when WeChat refuses the code, leaving the QR waiting', async () => {
    answers[WECHAT_ACCESS_TOKEN_URL] = { json: { errcode: 40163, errmsg: 'code been used' } };
    const { logintag, state } = await wechatLogin();
    expect(await callback({ logintag, code: 'USED', state })).toEqual(PROVIDER_FAILED);
    expect((await poll(logintag)).body).toEqual(PENDING);
    expect(t.logs.some((line) => String(line['reason']).includes('errcode 40163'))).toBe(true);
    expect(JSON.stringify(t.logs)).not.toContain('wechat-secret');
  });

  it('answers 19009 when WeChat is down', async () => {
    answers[WECHAT_USERINFO_URL] = { status: 500, text: 'error' };
    const { logintag, state } = await wechatLogin();
    expect(await callback({ logintag, code: 'C', state })).toEqual(PROVIDER_FAILED);
  });

  it('answers 19007 for an unknown or expired logintag', async () => {
    const { logintag, state } = await wechatLogin();
    expect(await callback({ logintag: 'f'.repeat(32), code: 'C', state })).toEqual(EXPIRED);
    t.clock.advance(300_000);
    expect(await callback({ logintag, code: 'C', state })).toEqual(EXPIRED);
    expect(provider.calls).toHaveLength(0);
  });

  it('has no dev WeChat routes', async () => {
    for (const url of ['/api/dev/wechat/confirm', '/api/dev/wechat/scan']) {
      const response = await t.app.inject({ method: 'POST', url, payload: { logintag: 'a'.repeat(32), openid: 'x', nickname: 'x' } });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    }
  });
});

describe('QQ Connect popup login', () => {
  async function startPopup() {
    const started = await guid({ provider: 'qq' });
    expect(started).toMatchObject({ qrtype: 'popup', qrurl: `${ORIGIN}/api/oauth/qq/start?logintag=${started.logintag}` });
    const start = await t.app.inject({ method: 'GET', url: `/api/oauth/qq/start?logintag=${started.logintag}` });
    expect(start.statusCode).toBe(302);
    const authorize = new URL(String(start.headers.location));
    return { logintag: started.logintag, authorize, state: authorize.searchParams.get('state') ?? '' };
  }

  it('sends the popup to graph.qq.com, and its callback signs the QQ user in', async () => {
    const { logintag, authorize, state } = await startPopup();
    expect(`${authorize.origin}${authorize.pathname}`).toBe('https://graph.qq.com/oauth2.0/authorize');
    expect(Object.fromEntries(authorize.searchParams)).toEqual({
      response_type: 'code',
      client_id: '101234567',
      redirect_uri: `${ORIGIN}/api/oauth/qq/callback`,
      state,
      scope: 'get_user_info',
    });

    const page = await t.app.inject({ method: 'GET', url: `/api/oauth/qq/callback?code=QQCODE&state=${encodeURIComponent(state)}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('登录成功，窗口即将关闭');
    expect(page.body).toContain(`"logintag":"${logintag}"`);
    expect(provider.calls.map((call) => call.pathname)).toEqual(['/oauth2.0/token', '/oauth2.0/me', '/user/get_user_info']);
    expect((await poll(logintag)).body).toMatchObject({ ...OK, userinfo: { nickname: 'QQ李四', logintype: '1' } });
  });

  it('shows the failure page when QQ refuses, leaving the login waiting', async () => {
    answers[QQ_USER_INFO_URL] = { json: { ret: 100030, msg: 'user not authorized' } };
    const { logintag, state } = await startPopup();
    const page = await t.app.inject({ method: 'GET', url: `/api/oauth/qq/callback?code=QQCODE&state=${encodeURIComponent(state)}` });
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('QQ登录失败');
    expect(page.body).toContain(AUTH_ERRORS.providerFailed.message);
    expect((await poll(logintag)).body).toEqual(PENDING);
  });

  it('has no dev QQ authorisation page', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/dev/qq/authorize?state=s&redirect_uri=${encodeURIComponent(`${ORIGIN}/api/oauth/qq/callback`)}`,
    });
    expect(response.statusCode).toBe(404);
    const posted = await t.app.inject({ method: 'POST', url: '/api/dev/qq/authorize', payload: { state: 's', decision: 'authorize' } });
    expect(posted.statusCode).toBe(404);
  });
});
