import { AUTH_LIMITS } from '@xcad/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DatabaseLimitStore } from '../../limits';
import type * as CaptchaModule from './captcha';
import { createAccounts } from './accounts.service';
import type { Accounts } from './auth.contract';
import {
  call,
  createAuthTestApp,
  disableUser,
  expectAnswer,
  freshClient,
  otherCode,
  requestCode,
  setCookieOf,
  signInBySms,
  userInfoOf,
  userWithPassword,
  type AuthTestApp,
  type Caller,
} from './auth.testing';

const captcha = vi.hoisted(() => ({ text: 'PX7R' }));
vi.mock('./captcha', async (importOriginal) => {
  const original = await importOriginal<typeof CaptchaModule>();
  return { ...original, randomCaptchaText: (length: number) => captcha.text.slice(0, length) };
});

const NOT_SIGNED_IN = { code: 10060, message: '登录已失效，请重新登录' };
const WRONG_SMS_CODE = { code: 12007, message: '请输入正确的验证码' };
const PHONE_REGISTERED = { code: 19003, message: '当前号码已被注册' };
const PASSWORD_RULE = '请您填写有效的密码。格式要求: 由6-20位字母或数字组成';

let t: AuthTestApp;
let accounts: Accounts;

beforeAll(async () => {
  t = await createAuthTestApp();
  accounts = createAccounts({
    db: t.database.db,
    env: t.env,
    sms: t.outbox,
    log: t.app.log,
    clock: t.clock.now,
    limits: new DatabaseLimitStore(t.database.db),
  });
});

afterAll(async () => {
  await t.close();
});

async function registerCode(client: Caller & { phone: string }): Promise<string> {
  await call(t, '/api/v4/imgverify', {}, client);
  return requestCode(t, client, 'register', captcha.text);
}

async function profile(usertoken: string, caller: Caller, extra: Record<string, string | number> = {}) {
  return call(t, '/api/v4/memprofile', { usertoken, ...extra }, caller);
}

/** A WeChat user (logintype '1') signed in through the Accounts the oauth module uses. */
async function wechatUser(caller: Caller) {
  const userId = await accounts.userOfIdentity({
    provider: 'wechat',
    openid: `openid-${caller.deviceid}`,
    nickname: '微信用户',
    avatarUrl: '',
  });
  return accounts.signIn(userId, { deviceId: caller.deviceid, ip: caller.ip }, false);
}

describe('POST /api/v4/safregister', () => {
  it('creates a user with a password the user can then sign in with', async () => {
    const client = freshClient();
    const smscode = await registerCode(client);
    expect((await call(t, '/api/v4/safregister', { account: client.phone, smscode, password: 'Passw0rd' }, client)).body).toEqual({
      code: 10000,
      message: '',
    });
    const userinfo = userInfoOf(await call(t, '/api/v4/login', { account: client.phone, password: 'Passw0rd' }, client));
    expect(userinfo).toMatchObject({ username: client.phone, bindmobile: client.phone, ispwd: 1, logintype: '0' });
    const stored = await t.database.db
      .selectFrom('app_user')
      .select('password_hash')
      .where('mobile', '=', client.phone)
      .executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('refuses a registered phone with 19003', async () => {
    const client = freshClient();
    await signInBySms(t, client);
    expectAnswer(
      await call(t, '/api/v4/safregister', { account: client.phone, smscode: '1234', password: 'Passw0rd' }, client),
      PHONE_REGISTERED,
    );
  });

  it('refuses a wrong code with 19004, no code with 19310, and a code of another purpose', async () => {
    const client = freshClient();
    const fields = { account: client.phone, password: 'Passw0rd' };
    expectAnswer(await call(t, '/api/v4/safregister', { ...fields, smscode: '1234' }, client), {
      code: 19310,
      message: '请先获取短信验证码',
    });
    const loginCode = await requestCode(t, client, 'quicklogin');
    expectAnswer(await call(t, '/api/v4/safregister', { ...fields, smscode: loginCode }, client), { code: 19310 });
    await t.clock.advance(61_000);
    const smscode = await registerCode(client);
    expectAnswer(await call(t, '/api/v4/safregister', { ...fields, smscode: otherCode(smscode) }, client), {
      code: 19004,
      message: '验证码错误，请重试！',
    });
    expect((await call(t, '/api/v4/safregister', { ...fields, smscode }, client)).body).toMatchObject({ code: 10000 });
  });

  it.each([
    [{ smscode: '1234', password: 'Passw0rd' }, 'account', '请输入手机号'],
    [{ account: '138001380000', smscode: '1234', password: 'Passw0rd' }, 'account', '请您填写正确的11位手机号'],
    [{ account: '13800138000', password: 'Passw0rd' }, 'smscode', '请输入验证码'],
    [{ account: '13800138000', smscode: '1x34', password: 'Passw0rd' }, 'smscode', '请填写正确的验证码'],
    [{ account: '13800138000', smscode: '1234' }, 'password', PASSWORD_RULE],
    [{ account: '13800138000', smscode: '1234', password: 'abc12' }, 'password', PASSWORD_RULE],
    [{ account: '13800138000', smscode: '1234', password: 'abc 123' }, 'password', PASSWORD_RULE],
  ])('refuses %j with 10020 on %s: %s', async (fields, field, message) => {
    for (const path of ['/api/v4/safregister', '/api/v4/safforgetpwd']) {
      expectAnswer(await call(t, path, fields, freshClient()), { code: 10020, message, field });
    }
  });
});

describe('POST /api/v4/safforgetpwd', () => {
  it('refuses an unregistered phone with 19002', async () => {
    const client = freshClient();
    expectAnswer(await call(t, '/api/v4/safforgetpwd', { account: client.phone, smscode: '1234', password: 'Passw0rd' }, client), {
      code: 19002,
      message: '当前账号未注册，请先注册！',
    });
  });

  it('sets the new password and ends every session; a wrong code answers 12007', async () => {
    const client = freshClient();
    const signup = await userWithPassword(t, client, 'old123');
    const other = userInfoOf(await call(t, '/api/v4/login', { account: client.phone, password: 'old123' }, freshClient()));
    await t.clock.advance(61_000);
    const smscode = await requestCode(t, client, 'forgetpwd');
    const fields = { account: client.phone, password: 'new456' };
    expectAnswer(await call(t, '/api/v4/safforgetpwd', { ...fields, smscode: otherCode(smscode) }, client), WRONG_SMS_CODE);
    expect((await call(t, '/api/v4/safforgetpwd', { ...fields, smscode }, client)).body).toEqual({ code: 10000, message: '' });

    expectAnswer(await profile(signup.usertoken, client), NOT_SIGNED_IN);
    expectAnswer(await profile(other.usertoken, client), NOT_SIGNED_IN);
    expectAnswer(await call(t, '/api/v4/login', { account: client.phone, password: 'old123' }, client), { code: 12001 });
    expect((await call(t, '/api/v4/login', { account: client.phone, password: 'new456' }, client)).body).toMatchObject({ code: 10000 });
  });
});

describe('POST /api/v4/setpwd', () => {
  it('sets the first password of an SMS user once; then 12003', async () => {
    const client = freshClient();
    const { userinfo } = await signInBySms(t, client);
    const fields = { account: client.phone, usertoken: userinfo.usertoken, password: 'first1' };
    expect((await call(t, '/api/v4/setpwd', fields, client)).body).toEqual({ code: 10000, message: '' });
    expect(userInfoOf(await call(t, '/api/v4/login', { account: client.phone, password: 'first1' }, client)).ispwd).toBe(1);
    expectAnswer(await call(t, '/api/v4/setpwd', { ...fields, password: 'second2' }, client), {
      code: 12003,
      message: '已设置过密码，请使用修改密码',
    });
  });

  it('needs a session (10060) and a valid password (10020)', async () => {
    const client = freshClient();
    expectAnswer(await call(t, '/api/v4/setpwd', { password: 'first1' }, client), NOT_SIGNED_IN);
    expectAnswer(await call(t, '/api/v4/setpwd', { usertoken: 'not-a-token', password: 'first1' }, client), NOT_SIGNED_IN);
    expectAnswer(await call(t, '/api/v4/setpwd', { usertoken: 'x', password: 'short' }, client), {
      code: 10020,
      message: PASSWORD_RULE,
      field: 'password',
    });
  });
});

describe('POST /api/v4/changepwd', () => {
  it('ends every session and answers a new one; the old password no longer works', async () => {
    const client = freshClient();
    const first = await userWithPassword(t, client, 'old123');
    const second = userInfoOf(await call(t, '/api/v4/login', { account: client.phone, password: 'old123' }, freshClient()));
    const changed = await call(
      t,
      '/api/v4/changepwd',
      { account: client.phone, usertoken: first.usertoken, oldpassword: 'old123', password: 'new456' },
      client,
    );
    const userinfo = userInfoOf(changed);
    expect(userinfo).toMatchObject({ uid: first.uid, ispwd: 1 });
    expect(userinfo.usertoken).not.toBe(first.usertoken);
    expect(setCookieOf(changed)).toContain(`xcad_session=${userinfo.usertoken};`);

    expectAnswer(await profile(first.usertoken, client), NOT_SIGNED_IN);
    expectAnswer(await profile(second.usertoken, client), NOT_SIGNED_IN);
    expect((await profile(userinfo.usertoken, client)).body).toMatchObject({ code: 10000 });
    expectAnswer(await call(t, '/api/v4/login', { account: client.phone, password: 'old123' }, client), { code: 12001 });
    expect((await call(t, '/api/v4/login', { account: client.phone, password: 'new456' }, client)).body).toMatchObject({ code: 10000 });
  });

  it('refuses a wrong old password with 12002, counting toward the account lock', async () => {
    const client = freshClient();
    const signup = await userWithPassword(t, client, 'old123');
    const fields = { usertoken: signup.usertoken, oldpassword: 'nope00', password: 'new456' };
    for (let attempt = 1; attempt < AUTH_LIMITS.failuresBeforeLock; attempt += 1) {
      expectAnswer(await call(t, '/api/v4/changepwd', fields, client), { code: 12002, message: '原密码错误' });
    }
    expectAnswer(await call(t, '/api/v4/login', { account: client.phone, password: 'nope00' }, client), { code: 10062 });
    expectAnswer(await call(t, '/api/v4/changepwd', { ...fields, oldpassword: 'old123' }, client), { code: 10062 });
    expectAnswer(await call(t, '/api/v4/login', { account: client.phone, password: 'old123' }, client), { code: 10062 });
  });

  it.each([
    [{ password: 'new456' }, 'oldpassword', '请输入原密码'],
    [{ oldpassword: '', password: 'new456' }, 'oldpassword', '请输入原密码'],
    [{ oldpassword: 'old123' }, 'password', PASSWORD_RULE],
    [{ oldpassword: 'old123', password: '密码密码密码' }, 'password', PASSWORD_RULE],
  ])('refuses %j with 10020 on %s: %s', async (fields, field, message) => {
    expectAnswer(await call(t, '/api/v4/changepwd', { usertoken: 'x', ...fields }, freshClient()), { code: 10020, message, field });
  });

  it('needs a session (10060)', async () => {
    expectAnswer(await call(t, '/api/v4/changepwd', { oldpassword: 'old123', password: 'new456' }, freshClient()), NOT_SIGNED_IN);
  });
});

describe('POST /api/v4/changenick', () => {
  it('renames the user, trimmed, and answers the userinfo of this session', async () => {
    const client = freshClient();
    const { userinfo } = await signInBySms(t, client);
    const renamed = userInfoOf(await call(t, '/api/v4/changenick', { usertoken: userinfo.usertoken, nickname: '  迅捷用户🙂 ' }, client));
    expect(renamed).toEqual({ ...userinfo, nickname: '迅捷用户🙂' });
    expect(((await profile(userinfo.usertoken, client)).body['userinfo'] as { nickname: string }).nickname).toBe('迅捷用户🙂');
  });

  it.each([
    [{}, '请输入昵称'],
    [{ nickname: '   ' }, '请输入昵称'],
    [{ nickname: '字'.repeat(21) }, '昵称不能超过20个字符'],
    [{ nickname: '<b>me</b>' }, '昵称包含不支持的字符'],
  ])('refuses %j with 10020: %s', async (fields, message) => {
    expectAnswer(await call(t, '/api/v4/changenick', { usertoken: 'x', ...fields }, freshClient()), {
      code: 10020,
      message,
      field: 'nickname',
    });
  });

  it('needs a session (10060)', async () => {
    expectAnswer(await call(t, '/api/v4/changenick', { nickname: '迅捷' }, freshClient()), NOT_SIGNED_IN);
  });
});

describe('POST /api/v4/bindaccount', () => {
  it('binds a mobile to a WeChat user: logintype 1 becomes 2', async () => {
    const client = freshClient();
    const social = await wechatUser(client);
    expect(social).toMatchObject({ logintype: '1', bindmobile: '', ispwd: 0 });
    const smscode = await requestCode(t, client, 'bindmobile');
    const bound = userInfoOf(await call(t, '/api/v4/bindaccount', { usertoken: social.usertoken, mobile: client.phone, smscode }, client));
    expect(bound).toEqual({ ...social, logintype: '2', bindmobile: client.phone });
    expect((await profile(social.usertoken, client, { account: client.phone })).body).toMatchObject({
      userinfo: { logintype: '2', bindwechat: true },
    });

    await t.clock.advance(61_000);
    const again = await call(
      t,
      '/api/v4/bindaccount',
      { usertoken: social.usertoken, mobile: freshClient().phone, smscode: '1234' },
      client,
    );
    expectAnswer(again, { code: 19008, message: '该账号已绑定手机号' });
  });

  it('refuses a phone user with 19008', async () => {
    const client = freshClient();
    const { userinfo } = await signInBySms(t, client);
    expectAnswer(
      await call(t, '/api/v4/bindaccount', { usertoken: userinfo.usertoken, mobile: freshClient().phone, smscode: '1234' }, client),
      {
        code: 19008,
      },
    );
  });

  it("refuses another user's mobile with 19003 and a wrong code with 12007", async () => {
    const client = freshClient();
    const social = await wechatUser(client);
    const taken = freshClient();
    await signInBySms(t, taken);
    expectAnswer(
      await call(t, '/api/v4/bindaccount', { usertoken: social.usertoken, mobile: taken.phone, smscode: '1234' }, client),
      PHONE_REGISTERED,
    );

    const smscode = await requestCode(t, client, 'bindmobile');
    expectAnswer(
      await call(t, '/api/v4/bindaccount', { usertoken: social.usertoken, mobile: client.phone, smscode: otherCode(smscode) }, client),
      WRONG_SMS_CODE,
    );
  });

  it('accepts only a bindmobile code', async () => {
    const client = freshClient();
    const social = await wechatUser(client);
    const smscode = await requestCode(t, client, 'quicklogin');
    expectAnswer(await call(t, '/api/v4/bindaccount', { usertoken: social.usertoken, mobile: client.phone, smscode }, client), {
      code: 19310,
    });
  });

  it.each([
    [{ smscode: '1234' }, 'mobile', '请输入手机号'],
    [{ mobile: '1380013800', smscode: '1234' }, 'mobile', '请您填写正确的11位手机号'],
    [{ mobile: '13800138000' }, 'smscode', '请输入验证码'],
    [{ mobile: '13800138000', smscode: '123' }, 'smscode', '请填写正确的验证码'],
  ])('refuses %j with 10020 on %s: %s', async (fields, field, message) => {
    expectAnswer(await call(t, '/api/v4/bindaccount', { usertoken: 'x', ...fields }, freshClient()), { code: 10020, message, field });
  });

  it('needs a session (10060)', async () => {
    expectAnswer(await call(t, '/api/v4/bindaccount', { mobile: '13800138000', smscode: '1234' }, freshClient()), NOT_SIGNED_IN);
  });
});

describe('POST /api/v4/memprofile', () => {
  it('answers the profile with the registration time and linked sign-ins; memberships with showvip', async () => {
    const client = freshClient();
    const before = Math.floor(t.clock.now() / 1000);
    const { userinfo } = await signInBySms(t, client);
    const after = Math.floor(t.clock.now() / 1000);
    const plain = await profile(userinfo.usertoken, client, { account: client.phone });
    // Registration happened during the sign-in, which may cross a second boundary.
    const regtime = (plain.body['userinfo'] as { regtime: number }).regtime;
    expect(regtime).toBeGreaterThanOrEqual(before);
    expect(regtime).toBeLessThanOrEqual(after);
    expect(plain.body).toEqual({ code: 10000, message: '', userinfo: { ...userinfo, regtime, bindwechat: false, bindqq: false } });
    const registeredAt = regtime;

    const expiry = registeredAt + 400_000_000;
    await t.database.db
      .insertInto('membership')
      .values([
        { user_id: Number(userinfo.uid), product_id: 202, auth_value: registeredAt - 10, updated_at: 0 },
        { user_id: Number(userinfo.uid), product_id: 211, auth_value: expiry, updated_at: 0 },
      ])
      .execute();
    const withVip = await profile(userinfo.usertoken, client, { showvip: 1 });
    expect(withVip.body['userinfo']).toMatchObject({
      vip: [
        { productid: 202, auth_value: registeredAt - 10 },
        { productid: 211, auth_value: expiry },
      ],
      nowtime: Math.floor(t.clock.now() / 1000),
    });
  });

  it('reads the session from the cookie when the body has no usertoken', async () => {
    const client = freshClient();
    const { userinfo } = await signInBySms(t, client);
    const viaCookie = await call(t, '/api/v4/memprofile', {}, client, { cookie: `theme=dark; xcad_session=${userinfo.usertoken}` });
    expect(viaCookie.body).toMatchObject({ code: 10000, userinfo: { uid: userinfo.uid, usertoken: userinfo.usertoken } });
  });

  it('refuses with 10060: no token, unknown token, another account, an expired session', async () => {
    const client = freshClient();
    const { userinfo } = await signInBySms(t, client);
    expectAnswer(await call(t, '/api/v4/memprofile', {}, client), NOT_SIGNED_IN);
    expectAnswer(await profile('A'.repeat(43), client), NOT_SIGNED_IN);
    expectAnswer(await profile(userinfo.usertoken, client, { account: freshClient().phone }), NOT_SIGNED_IN);
    expectAnswer(await call(t, '/api/v4/memprofile', {}, client, { cookie: 'xcad_session=' }), NOT_SIGNED_IN);

    await t.clock.advance(AUTH_LIMITS.sessionTtlSeconds * 1000);
    expectAnswer(await profile(userinfo.usertoken, client), NOT_SIGNED_IN);
  });

  it('refuses the session of a disabled account with 10063', async () => {
    const client = freshClient();
    const { userinfo } = await signInBySms(t, client);
    await disableUser(t, userinfo.uid);
    expectAnswer(await profile(userinfo.usertoken, client), { code: 10063, message: '账号异常，请联系客服' });
  });

  it('refuses a malformed showvip with 10020', async () => {
    expectAnswer(await call(t, '/api/v4/memprofile', { usertoken: 'x', showvip: 'maybe' }, freshClient()), {
      code: 10020,
      field: 'showvip',
    });
  });
});

describe('POST /api/v4/logout', () => {
  it('revokes the session and clears the cookie; again is fine', async () => {
    const client = freshClient();
    const { userinfo } = await signInBySms(t, client);
    await t.clock.advance(61_000);
    const smscode = await requestCode(t, client, 'quicklogin');
    const other = userInfoOf(await call(t, '/api/v4/safloginquick', { account: client.phone, smscode }, client));

    const out = await call(t, '/api/v4/logout', { usertoken: userinfo.usertoken }, client);
    expect(out.body).toEqual({ code: 10000, message: '' });
    expect(setCookieOf(out)).toBe('xcad_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0');
    expectAnswer(await profile(userinfo.usertoken, client), NOT_SIGNED_IN);
    // Only that session ends.
    expect((await profile(other.usertoken, client)).body).toMatchObject({ code: 10000 });

    expect((await call(t, '/api/v4/logout', { usertoken: userinfo.usertoken }, client)).body).toEqual({ code: 10000, message: '' });
    expect((await call(t, '/api/v4/logout', {}, client)).body).toEqual({ code: 10000, message: '' });
  });

  it('logs out the session of the cookie', async () => {
    const client = freshClient();
    const { userinfo } = await signInBySms(t, client);
    const out = await call(t, '/api/v4/logout', {}, client, { cookie: `xcad_session=${userinfo.usertoken}` });
    expect(out.body).toEqual({ code: 10000, message: '' });
    expectAnswer(await profile(userinfo.usertoken, client), NOT_SIGNED_IN);
  });
});

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Lax, for the whole site, as long as the session', async () => {
    const client = freshClient();
    const { userinfo, result } = await signInBySms(t, client);
    expect(setCookieOf(result)).toBe(
      `xcad_session=${userinfo.usertoken}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${AUTH_LIMITS.sessionTtlSeconds}`,
    );
  });

  it('is Secure when the request came over https through the trusted proxy', async () => {
    const client = freshClient();
    await userWithPassword(t, client, 'abc123');
    const viaProxy = { deviceid: client.deviceid, ip: '127.0.0.1' };
    const https = { 'x-forwarded-proto': 'https', 'x-forwarded-for': client.ip };
    const result = await call(t, '/api/v4/login', { account: client.phone, password: 'abc123' }, viaProxy, https);
    expect(setCookieOf(result)).toMatch(/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/);
    const out = await call(t, '/api/v4/logout', {}, viaProxy, https);
    expect(setCookieOf(out)).toBe('xcad_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure');

    // An address that is not the proxy cannot claim https.
    const direct = await call(t, '/api/v4/login', { account: client.phone, password: 'abc123' }, client, { 'x-forwarded-proto': 'https' });
    expect(setCookieOf(direct)).not.toContain('Secure');
  });
});
