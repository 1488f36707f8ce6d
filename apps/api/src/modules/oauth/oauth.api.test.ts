import { randomUUID } from 'node:crypto';
import {
  AUTH_ERRORS,
  LOGIN_ERRORS,
  PRODUCT,
  PROTOCOL_ERRORS,
  SESSION_COOKIE,
  signFields,
  SUCCESS_CODE,
  type SignableFields,
} from '@xcad/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedCall, type TestApp } from '../../test-app';
import { devOpenidOf } from './dev.provider';

// WeChat QR and QQ popup sign-in with the dev providers (the defaults), through the real app.

const ORIGIN = 'http://127.0.0.1:3000';
const PENDING = { code: AUTH_ERRORS.qrPending.codes[0], message: AUTH_ERRORS.qrPending.message };
const SCANNED = { code: AUTH_ERRORS.qrScanned.codes[0], message: AUTH_ERRORS.qrScanned.message };
const EXPIRED = { code: AUTH_ERRORS.qrExpired.codes[0], message: AUTH_ERRORS.qrExpired.message };
const ABNORMAL = { code: LOGIN_ERRORS.accountAbnormal.codes[0], message: LOGIN_ERRORS.accountAbnormal.message };
const OK = { code: SUCCESS_CODE, message: expect.any(String) };

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_ORIGIN: ORIGIN });
});

afterAll(async () => {
  await t.close();
});

async function guid(provider?: 'wechat' | 'qq', deviceid = 'test-device') {
  const { body } = await signedCall(t, '/api/v4/wechatguid', provider === undefined ? {} : { provider }, { deviceid });
  expect(body).toMatchObject(OK);
  return body as { logintag: string; qrurl: string; qrtype: string; expiresin: number };
}

async function poll(logintag: string, fields: SignableFields = {}, deviceid = 'test-device') {
  return signedCall(t, '/api/v4/wechatstate', { logintag, ...fields }, { deviceid });
}

async function devPost(path: string, payload: Record<string, unknown>) {
  const response = await t.app.inject({ method: 'POST', url: path, payload });
  return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
}

async function userIdOf(provider: 'wechat' | 'qq', openid: string): Promise<number> {
  const row = await t.database.db
    .selectFrom('user_identity')
    .select('user_id')
    .where('provider', '=', provider)
    .where('openid', '=', openid)
    .executeTakeFirstOrThrow();
  return Number(row.user_id);
}

/** A new dev WeChat user, signed in once so the account exists; answers its user id. */
async function signedInWechatUser(openid: string): Promise<number> {
  const { logintag } = await guid();
  expect((await devPost('/api/dev/wechat/confirm', { logintag, openid, nickname: '测试' })).body).toMatchObject(OK);
  expect((await poll(logintag)).body).toMatchObject(OK);
  return userIdOf('wechat', openid);
}

async function disable(userId: number): Promise<void> {
  await t.database.db.updateTable('app_user').set({ status: 'disabled' }).where('id', '=', userId).execute();
}

describe('dev WeChat QR login', () => {
  it('goes guid -> pending -> scanned -> confirmed -> signed in once, with the session cookie', async () => {
    const started = await guid();
    expect(started).toEqual({
      ...OK,
      logintag: expect.stringMatching(/^[0-9a-f]{32}$/),
      qrurl: `${ORIGIN}/scanlogin/${started.logintag}`,
      qrtype: 'link',
      expiresin: 300,
    });
    const { logintag } = started;

    expect((await poll(logintag)).body).toEqual(PENDING);
    expect(await devPost('/api/dev/wechat/scan', { logintag })).toEqual({ status: 200, body: OK });
    expect((await poll(logintag)).body).toEqual(SCANNED);
    expect(await devPost('/api/dev/wechat/confirm', { logintag, openid: 'wx-flow-1', nickname: '扫码用户' })).toEqual({
      status: 200,
      body: OK,
    });

    const signedIn = await poll(logintag, { showvip: 1 });
    expect(signedIn.status).toBe(200);
    const userinfo = (signedIn.body as { userinfo: Record<string, unknown> }).userinfo;
    expect(signedIn.body).toMatchObject(OK);
    expect(userinfo).toMatchObject({
      nickname: '扫码用户',
      logintype: '1',
      bindmobile: '',
      vip: expect.any(Array),
      nowtime: expect.any(Number),
    });
    expect(userinfo['usertoken']).toEqual(expect.any(String));
    const cookie = String(signedIn.headers['set-cookie']);
    expect(cookie).toContain(`${SESSION_COOKIE}=${String(userinfo['usertoken'])}`);
    expect(cookie).toMatch(/HttpOnly/i);

    expect((await poll(logintag)).body).toEqual(EXPIRED);
  });

  it('hands a confirmed login to exactly one of several simultaneous polls', async () => {
    const { logintag } = await guid();
    await devPost('/api/dev/wechat/confirm', { logintag, openid: 'wx-race', nickname: '并发' });
    const answers = await Promise.all([poll(logintag), poll(logintag), poll(logintag), poll(logintag)]);
    const codes = answers.map((answer) => answer.body['code']).sort();
    expect(codes).toEqual([SUCCESS_CODE, EXPIRED.code, EXPIRED.code, EXPIRED.code].sort());
  });

  it('lets only the device that asked for the QR collect the login', async () => {
    const { logintag } = await guid(undefined, 'desktop-browser');
    await devPost('/api/dev/wechat/confirm', { logintag, openid: 'wx-device', nickname: '设备' });
    expect((await poll(logintag, {}, 'someone-else')).body).toEqual(EXPIRED);
    expect((await poll(logintag, {}, 'desktop-browser')).body).toMatchObject(OK);
  });

  it('signs the same WeChat user in again as the same account', async () => {
    const uids: string[] = [];
    for (const nickname of ['第一次', '第二次']) {
      const { logintag } = await guid();
      await devPost('/api/dev/wechat/confirm', { logintag, openid: 'wx-returning', nickname });
      uids.push(((await poll(logintag)).body as { userinfo: { uid: string } }).userinfo.uid);
    }
    expect(uids[1]).toBe(uids[0]);
    const other = await guid();
    await devPost('/api/dev/wechat/confirm', { logintag: other.logintag, openid: 'wx-someone-else', nickname: '别人' });
    expect(((await poll(other.logintag)).body as { userinfo: { uid: string } }).userinfo.uid).not.toBe(uids[0]);
  });

  it('expires the QR after 300 s for polls, scans and confirmations', async () => {
    const { logintag } = await guid();
    // Whole seconds count, so 298 s after the request is at most 299 s of the session's life.
    t.clock.advance(298_000);
    expect((await poll(logintag)).body).toEqual(PENDING);
    t.clock.advance(2_000);
    expect((await poll(logintag)).body).toEqual(EXPIRED);
    expect((await devPost('/api/dev/wechat/scan', { logintag })).body).toEqual(EXPIRED);
    expect((await devPost('/api/dev/wechat/confirm', { logintag, openid: 'wx-late', nickname: '迟到' })).body).toEqual(EXPIRED);
  });

  it('refuses a confirmed login that expired before anyone collected it', async () => {
    const { logintag } = await guid();
    await devPost('/api/dev/wechat/confirm', { logintag, openid: 'wx-slow', nickname: '慢' });
    t.clock.advance(301_000);
    expect((await poll(logintag)).body).toEqual(EXPIRED);
  });

  it('answers 10063 for a disabled account, at confirmation and at collection', async () => {
    const userId = await signedInWechatUser('wx-disabled');
    await disable(userId);
    const { logintag } = await guid();
    expect((await devPost('/api/dev/wechat/confirm', { logintag, openid: 'wx-disabled', nickname: '停用' })).body).toEqual(ABNORMAL);
    expect((await poll(logintag)).body).toEqual(ABNORMAL);

    const otherId = await signedInWechatUser('wx-disabled-later');
    const second = await guid();
    await devPost('/api/dev/wechat/confirm', { logintag: second.logintag, openid: 'wx-disabled-later', nickname: '稍后停用' });
    await disable(otherId);
    expect((await poll(second.logintag)).body).toEqual(ABNORMAL);
  });

  it('answers 19007 for unknown tags and for tags of a QQ login', async () => {
    expect((await poll('0'.repeat(32))).body).toEqual(EXPIRED);
    const qq = await guid('qq');
    expect((await devPost('/api/dev/wechat/scan', { logintag: qq.logintag })).body).toEqual(EXPIRED);
    expect((await devPost('/api/dev/wechat/confirm', { logintag: qq.logintag, openid: 'wx-x', nickname: 'x' })).body).toEqual(EXPIRED);
  });
});

describe('validation and signing', () => {
  const invalid = (field: string, message: string) => ({ code: AUTH_ERRORS.invalidField.codes[0], message, field });

  it('answers 10020 naming the field for a bad logintag', async () => {
    expect((await signedCall(t, '/api/v4/wechatstate', { logintag: 'short' })).body).toEqual(invalid('logintag', '登录标识无效'));
    expect((await signedCall(t, '/api/v4/wechatstate', {})).body).toEqual(invalid('logintag', '登录标识无效'));
    expect((await devPost('/api/dev/wechat/scan', { logintag: 'x' })).body).toEqual(invalid('logintag', '登录标识无效'));
  });

  it('answers 10020 for an unknown provider and for bad dev confirmations', async () => {
    expect((await signedCall(t, '/api/v4/wechatguid', { provider: 'weibo' })).body).toMatchObject({ code: 10020, field: 'provider' });
    const { logintag } = await guid();
    expect((await devPost('/api/dev/wechat/confirm', { logintag, openid: 'has spaces', nickname: 'x' })).body).toEqual(
      invalid('openid', 'openid无效'),
    );
    expect((await devPost('/api/dev/wechat/confirm', { logintag, openid: 'wx-1', nickname: '<b>' })).body).toEqual(
      invalid('nickname', '昵称包含不支持的字符'),
    );
    expect((await devPost('/api/dev/wechat/confirm', { logintag, openid: 'wx-1', nickname: '  ' })).body).toEqual(
      invalid('nickname', '请输入昵称'),
    );
    expect((await signedCall(t, '/api/v4/wechatcallback', { logintag, code: 'c' })).body).toMatchObject({ code: 10020, field: 'state' });
    // Nothing was confirmed by the refused calls.
    expect((await poll(logintag)).body).toEqual(PENDING);
  });

  it.each(['/api/v4/wechatguid', '/api/v4/wechatstate', '/api/v4/wechatcallback'])('refuses %s with a bad signature', async (path) => {
    const signed = signFields(
      {
        deviceid: 'test-device',
        timestamp: Math.floor(t.clock.now() / 1000),
        softname: PRODUCT.softname,
        nonce: randomUUID(),
        logintag: '0'.repeat(32),
      },
      t.env.PRODUCT_SIGN_SECRET,
    );
    const response = await t.app.inject({ method: 'POST', url: path, payload: { ...signed, logintag: '1'.repeat(32) } });
    expect(response.statusCode).toBe(PROTOCOL_ERRORS.badSignature.status);
    expect(response.json()).toEqual({ code: PROTOCOL_ERRORS.badSignature.code, message: PROTOCOL_ERRORS.badSignature.message });
  });

  it('refuses a replayed wechatguid', async () => {
    const signed = signFields(
      { deviceid: 'test-device', timestamp: Math.floor(t.clock.now() / 1000), nonce: randomUUID() },
      t.env.PRODUCT_SIGN_SECRET,
    );
    const first = await t.app.inject({ method: 'POST', url: '/api/v4/wechatguid', payload: signed });
    expect(first.json()).toMatchObject(OK);
    const again = await t.app.inject({ method: 'POST', url: '/api/v4/wechatguid', payload: signed });
    expect(again.json()).toMatchObject({ code: PROTOCOL_ERRORS.replayed.code });
  });
});

describe('dev QQ popup login', () => {
  function pathOf(url: string): string {
    const parsed = new URL(url);
    expect(parsed.origin).toBe(ORIGIN);
    return `${parsed.pathname}${parsed.search}`;
  }

  async function authorizeFormOf(logintag: string) {
    const start = await t.app.inject({ method: 'GET', url: `/api/oauth/qq/start?logintag=${logintag}` });
    expect(start.statusCode).toBe(302);
    const authorizeUrl = new URL(String(start.headers.location));
    expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(`${ORIGIN}/api/dev/qq/authorize`);
    return {
      state: authorizeUrl.searchParams.get('state') ?? '',
      redirect_uri: authorizeUrl.searchParams.get('redirect_uri') ?? '',
      authorizeUrl,
    };
  }

  async function submit(form: Record<string, string>) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/dev/qq/authorize',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
    });
    return response;
  }

  it('goes start -> authorisation page -> callback -> wechatstate signed in', async () => {
    const started = await guid('qq');
    expect(started).toMatchObject({ qrtype: 'popup', qrurl: `${ORIGIN}/api/oauth/qq/start?logintag=${started.logintag}`, expiresin: 300 });
    const { authorizeUrl, ...form } = await authorizeFormOf(started.logintag);
    expect(form.redirect_uri).toBe(`${ORIGIN}/api/oauth/qq/callback`);

    const page = await t.app.inject({ method: 'GET', url: pathOf(authorizeUrl.toString()) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain('QQ登录（开发环境）');
    expect(page.body).toContain('data-testid="qq-dev-authorize"');
    expect(page.body).toMatch(/data-testid="qq-dev-nickname"/);
    expect(page.body).toContain('value="QQ测试用户"');

    const approved = await submit({ ...form, nickname: 'QQ小明', decision: 'authorize' });
    expect(approved.statusCode).toBe(303);
    const callbackUrl = new URL(String(approved.headers.location));
    expect(`${callbackUrl.origin}${callbackUrl.pathname}`).toBe(`${ORIGIN}/api/oauth/qq/callback`);
    expect(callbackUrl.searchParams.get('code')).toMatch(/^dev-/);
    expect(callbackUrl.searchParams.get('state')).toBe(form.state);

    expect((await poll(started.logintag)).body).toEqual(PENDING);
    const callback = await t.app.inject({ method: 'GET', url: pathOf(callbackUrl.toString()) });
    expect(callback.statusCode).toBe(200);
    expect(callback.body).toContain('登录成功，窗口即将关闭');
    expect(callback.body).toContain(`window.opener.postMessage({"type":"xcad-login","logintag":"${started.logintag}"},"${ORIGIN}")`);
    const nonce = /script-src 'nonce-([^']+)'/.exec(String(callback.headers['content-security-policy']))?.[1];
    expect(callback.body).toContain(`<script nonce="${String(nonce)}">`);
    expect(callback.headers['referrer-policy']).toBe('no-referrer');

    const signedIn = await poll(started.logintag);
    expect(signedIn.body).toMatchObject({ ...OK, userinfo: { nickname: 'QQ小明', logintype: '1' } });
    expect(String(signedIn.headers['set-cookie'])).toContain(`${SESSION_COOKIE}=`);

    // The code and state are spent: a reload of the callback fails, the tag is consumed.
    const reload = await t.app.inject({ method: 'GET', url: pathOf(callbackUrl.toString()) });
    expect(reload.statusCode).toBe(400);
    expect(reload.body).toContain('QQ登录失败');
    expect((await poll(started.logintag)).body).toEqual(EXPIRED);
  });

  it('shows the cancellation and leaves the login waiting', async () => {
    const { logintag } = await guid('qq');
    const { authorizeUrl: _ignored, ...form } = await authorizeFormOf(logintag);
    const cancelled = await submit({ ...form, nickname: '', decision: 'cancel' });
    expect(cancelled.statusCode).toBe(303);
    const callbackUrl = new URL(String(cancelled.headers.location));
    expect(Object.fromEntries(callbackUrl.searchParams)).toEqual({ error: 'access_denied', state: form.state });
    const page = await t.app.inject({ method: 'GET', url: pathOf(callbackUrl.toString()) });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('QQ登录已取消');
    expect(page.body).toContain('data-testid="oauth-close"');
    expect((await poll(logintag)).body).toEqual(PENDING);
  });

  it('asks again for a nickname the site cannot show', async () => {
    const { logintag } = await guid('qq');
    const { authorizeUrl: _ignored, ...form } = await authorizeFormOf(logintag);
    const refused = await submit({ ...form, nickname: '<script>', decision: 'authorize' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('昵称包含不支持的字符');
    expect(refused.body).toContain('value="&lt;script&gt;"');
  });

  it('refuses to send the popup anywhere but the registered callback', async () => {
    const evil = encodeURIComponent('https://evil.example/steal');
    const page = await t.app.inject({ method: 'GET', url: `/api/dev/qq/authorize?state=abc&redirect_uri=${evil}` });
    expect(page.statusCode).toBe(400);
    const posted = await submit({ state: 'abc', redirect_uri: 'https://evil.example/steal', nickname: 'x', decision: 'authorize' });
    expect(posted.statusCode).toBe(400);
    expect(posted.headers.location).toBeUndefined();
  });

  it('answers a failure page for a state it never issued', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/oauth/qq/callback?code=dev-abc&state=forged' });
    expect(page.statusCode).toBe(400);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('QQ登录失败');
    const bare = await t.app.inject({ method: 'GET', url: '/api/oauth/qq/callback' });
    expect(bare.statusCode).toBe(400);
  });

  it('answers the expired page for an unknown, a WeChat or an expired logintag', async () => {
    const wechat = await guid();
    const qq = await guid('qq');
    t.clock.advance(300_000);
    for (const url of [
      '/api/oauth/qq/start?logintag=' + '0'.repeat(32),
      `/api/oauth/qq/start?logintag=${wechat.logintag}`,
      `/api/oauth/qq/start?logintag=${qq.logintag}`,
      '/api/oauth/qq/start',
    ]) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(400);
      expect(page.body).toContain('登录已过期');
      expect(page.body).toContain('data-testid="oauth-close"');
    }
  });

  it('tells the opener about a disabled account, which wechatstate refuses with 10063', async () => {
    const first = await guid('qq');
    const firstForm = await authorizeFormOf(first.logintag);
    const approved = await submit({
      state: firstForm.state,
      redirect_uri: firstForm.redirect_uri,
      nickname: '将停用',
      decision: 'authorize',
    });
    await t.app.inject({ method: 'GET', url: pathOf(String(approved.headers.location)) });
    expect((await poll(first.logintag)).body).toMatchObject(OK);
    await disable(await userIdOf('qq', devOpenidOf('将停用')));

    const second = await guid('qq');
    const form = await authorizeFormOf(second.logintag);
    const again = await submit({ state: form.state, redirect_uri: form.redirect_uri, nickname: '将停用', decision: 'authorize' });
    const page = await t.app.inject({ method: 'GET', url: pathOf(String(again.headers.location)) });
    expect(page.body).toContain(LOGIN_ERRORS.accountAbnormal.message);
    expect(page.body).toContain(`"logintag":"${second.logintag}"`);
    expect((await poll(second.logintag)).body).toEqual(ABNORMAL);
  });
});
