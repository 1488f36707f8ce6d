import { AUTH_LIMITS } from '@xcad/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
} from './auth.testing';

const WRONG_SMS_CODE = { code: 12007, message: '请输入正确的验证码' };
const NO_SMS_CODE = { code: 19310, message: '请先获取短信验证码' };
const LOCKED = { code: 10062, message: '操作频繁，请1小时后再试' };
const WRONG_ACCOUNT_OR_PASSWORD = { code: 12001, message: '账号密码错误' };
const ABNORMAL = { code: 10063, message: '账号异常，请联系客服' };

let t: AuthTestApp;

beforeAll(async () => {
  t = await createAuthTestApp();
});

afterAll(async () => {
  await t.close();
});

describe('POST /api/v4/loginquick', () => {
  it('registers an unknown phone: a user without a password, signed in with a cookie', async () => {
    const client = freshClient();
    const { userinfo, result } = await signInBySms(t, client);
    expect(userinfo).toEqual({
      uid: expect.stringMatching(/^\d+$/),
      username: client.phone,
      nickname: `${client.phone.slice(0, 3)}****${client.phone.slice(7)}`,
      head_portrait: '',
      usertoken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      bindmobile: client.phone,
      logintype: '0',
      ispwd: 0,
    });
    expect(userinfo.token).not.toBe(userinfo.usertoken);
    expect(setCookieOf(result)).toContain(`xcad_session=${userinfo.usertoken};`);
    // Only hashes are stored.
    const stored = await t.database.db.selectFrom('user_session').selectAll().where('user_id', '=', Number(userinfo.uid)).execute();
    expect(JSON.stringify(stored)).not.toContain(userinfo.usertoken);
    expect(JSON.stringify(stored)).not.toContain(userinfo.token);
  });

  it('signs a known phone in as the same user, with new tokens; 86- names the same phone', async () => {
    const client = freshClient();
    const first = await signInBySms(t, client);
    await t.clock.advance(61_000);
    const code = await requestCode(t, client, 'quicklogin');
    const again = userInfoOf(await call(t, '/api/v4/loginquick', { account: `86-${client.phone}`, smscode: code }, client));
    expect(again.uid).toBe(first.userinfo.uid);
    expect(again.username).toBe(client.phone);
    expect(again.usertoken).not.toBe(first.userinfo.usertoken);
  });

  it('adds the memberships and the server time with showvip', async () => {
    const client = freshClient();
    // The test clock runs with real time: the server's second lies between these two.
    const before = Math.floor(t.clock.now() / 1000);
    const { userinfo } = await signInBySms(t, client, { showvip: 1 });
    const after = Math.floor(t.clock.now() / 1000);
    expect(userinfo.vip).toEqual([]);
    expect(userinfo.nowtime).toBeGreaterThanOrEqual(before);
    expect(userinfo.nowtime).toBeLessThanOrEqual(after);

    const expiry = Math.floor(t.clock.now() / 1000) + 86_400;
    await t.database.db
      .insertInto('membership')
      .values({ user_id: Number(userinfo.uid), product_id: 211, auth_value: expiry, updated_at: 0 })
      .execute();
    await t.clock.advance(61_000);
    const smscode = await requestCode(t, client, 'quicklogin');
    const withVip = userInfoOf(await call(t, '/api/v4/loginquick', { account: client.phone, smscode, showvip: 'true' }, client));
    expect(withVip.vip).toEqual([{ productid: 211, auth_value: expiry }]);
  });

  it.each([
    [{ smscode: '1234' }, 'account', '请输入手机号'],
    [{ account: '1380013800', smscode: '1234' }, 'account', '请您填写正确的11位手机号'],
    [{ account: '13800138000' }, 'smscode', '请输入验证码'],
    [{ account: '13800138000', smscode: '' }, 'smscode', '请输入验证码'],
    [{ account: '13800138000', smscode: '12a4' }, 'smscode', '请填写正确的验证码'],
    [{ account: '13800138000', smscode: '12345' }, 'smscode', '请填写正确的验证码'],
    [{ account: '13800138000', smscode: '1234', imgcode: 'a b' }, 'imgcode', '请填写正确的图形验证码'],
  ])('refuses %j with 10020 on %s: %s', async (fields, field, message) => {
    expectAnswer(await call(t, '/api/v4/loginquick', fields, freshClient()), { code: 10020, message, field });
  });

  it('asks for a code (19310) when none was sent', async () => {
    const client = freshClient();
    expectAnswer(await call(t, '/api/v4/loginquick', { account: client.phone, smscode: '1234' }, client), NO_SMS_CODE);
  });

  it('refuses a wrong code with 12007 and still accepts the right one after', async () => {
    const client = freshClient();
    const code = await requestCode(t, client, 'quicklogin');
    expectAnswer(await call(t, '/api/v4/loginquick', { account: client.phone, smscode: otherCode(code) }, client), WRONG_SMS_CODE);
    expect((await call(t, '/api/v4/loginquick', { account: client.phone, smscode: code }, client)).body).toMatchObject({ code: 10000 });
  });

  it('takes a code once: the second use answers 19310', async () => {
    const client = freshClient();
    const code = await requestCode(t, client, 'quicklogin');
    expect((await call(t, '/api/v4/loginquick', { account: client.phone, smscode: code }, client)).body).toMatchObject({ code: 10000 });
    expectAnswer(await call(t, '/api/v4/loginquick', { account: client.phone, smscode: code }, client), NO_SMS_CODE);
    expectAnswer(await call(t, '/api/v4/safloginquick', { account: client.phone, smscode: code }, client), NO_SMS_CODE);
  });

  it('lets a code expire after smsCodeTtlSeconds', async () => {
    const client = freshClient();
    const code = await requestCode(t, client, 'quicklogin');
    await t.clock.advance((AUTH_LIMITS.smsCodeTtlSeconds + 1) * 1000);
    expectAnswer(await call(t, '/api/v4/loginquick', { account: client.phone, smscode: code }, client), NO_SMS_CODE);
  });

  it('accepts only the latest code, and only for its purpose', async () => {
    const client = freshClient();
    const older = await requestCode(t, client, 'quicklogin');
    await t.clock.advance(61_000);
    const newer = await requestCode(t, client, 'quicklogin');
    if (older !== newer) {
      expectAnswer(await call(t, '/api/v4/loginquick', { account: client.phone, smscode: older }, client), WRONG_SMS_CODE);
    }
    await t.clock.advance(61_000);
    const forget = freshClient();
    await signInBySms(t, forget);
    await t.clock.advance(61_000);
    const resetCode = await requestCode(t, forget, 'forgetpwd');
    expectAnswer(await call(t, '/api/v4/loginquick', { account: forget.phone, smscode: resetCode }, forget), NO_SMS_CODE);
    expect((await call(t, '/api/v4/loginquick', { account: client.phone, smscode: newer }, client)).body).toMatchObject({ code: 10000 });
  });

  it('locks the phone for an hour after failuresBeforeLock wrong codes, the right code included', async () => {
    const client = freshClient();
    const code = await requestCode(t, client, 'quicklogin');
    const wrong = { account: client.phone, smscode: otherCode(code) };
    for (let attempt = 1; attempt < AUTH_LIMITS.failuresBeforeLock; attempt += 1) {
      expectAnswer(await call(t, '/api/v4/loginquick', wrong, client), WRONG_SMS_CODE);
    }
    expectAnswer(await call(t, '/api/v4/loginquick', wrong, client), LOCKED);
    expectAnswer(await call(t, '/api/v4/loginquick', { account: client.phone, smscode: code }, client), LOCKED);
    expectAnswer(await call(t, '/api/v4/safloginquick', { account: client.phone, smscode: code }, client), LOCKED);

    await t.clock.advance(AUTH_LIMITS.lockSeconds * 1000);
    const fresh = await requestCode(t, client, 'quicklogin');
    expect((await call(t, '/api/v4/loginquick', { account: client.phone, smscode: fresh }, client)).body).toMatchObject({ code: 10000 });
  });

  it('refuses a disabled account with 10063', async () => {
    const client = freshClient();
    const { userinfo } = await signInBySms(t, client);
    await disableUser(t, userinfo.uid);
    await t.clock.advance(61_000);
    const code = await requestCode(t, client, 'quicklogin');
    const refused = await call(t, '/api/v4/loginquick', { account: client.phone, smscode: code }, client);
    expectAnswer(refused, ABNORMAL);
    expect(refused.headers['set-cookie']).toBeUndefined();
  });
});

describe('POST /api/v4/safloginquick', () => {
  it('refuses an unregistered phone with 19002 and creates no user', async () => {
    const client = freshClient();
    const code = await requestCode(t, client, 'quicklogin');
    expectAnswer(await call(t, '/api/v4/safloginquick', { account: client.phone, smscode: code }, client), {
      code: 19002,
      message: '当前账号未注册，请先注册！',
    });
    const users = await t.database.db.selectFrom('app_user').select('id').where('mobile', '=', client.phone).execute();
    expect(users).toEqual([]);
  });

  it('signs a registered phone in', async () => {
    const client = freshClient();
    const first = await signInBySms(t, client);
    await t.clock.advance(61_000);
    const code = await requestCode(t, client, 'quicklogin');
    const result = await call(t, '/api/v4/safloginquick', { account: client.phone, smscode: code, showvip: '1' }, client);
    const userinfo = userInfoOf(result);
    expect(userinfo).toMatchObject({ uid: first.userinfo.uid, vip: [], ispwd: 0 });
    expect(setCookieOf(result)).toContain(userinfo.usertoken);
  });

  it('refuses a wrong code with 12007', async () => {
    const client = freshClient();
    await signInBySms(t, client);
    await t.clock.advance(61_000);
    const code = await requestCode(t, client, 'quicklogin');
    expectAnswer(await call(t, '/api/v4/safloginquick', { account: client.phone, smscode: otherCode(code) }, client), WRONG_SMS_CODE);
  });

  it.each([
    [{ smscode: '1234' }, 'account', '请输入手机号'],
    [{ account: '23800138000', smscode: '1234' }, 'account', '请您填写正确的11位手机号'],
    [{ account: '13800138000', smscode: '' }, 'smscode', '请输入验证码'],
    [{ account: '13800138000', smscode: 'abcd' }, 'smscode', '请填写正确的验证码'],
  ])('refuses %j with 10020 on %s: %s', async (fields, field, message) => {
    expectAnswer(await call(t, '/api/v4/safloginquick', fields, freshClient()), { code: 10020, message, field });
  });
});

describe('POST /api/v4/login', () => {
  it('signs in with mobile and password, as 86-mobile too', async () => {
    const client = freshClient();
    const signup = await userWithPassword(t, client, 'abc123');
    const result = await call(t, '/api/v4/login', { account: client.phone, password: 'abc123' }, client);
    const userinfo = userInfoOf(result);
    expect(userinfo).toMatchObject({ uid: signup.uid, username: client.phone, ispwd: 1, logintype: '0' });
    expect(userinfo).not.toHaveProperty('vip');
    expect(setCookieOf(result)).toContain(userinfo.usertoken);
    expect(
      userInfoOf(await call(t, '/api/v4/login', { account: `86-${client.phone}`, password: 'abc123', showvip: 1 }, client)),
    ).toMatchObject({
      uid: signup.uid,
      vip: [],
    });
  });

  it('signs in with an e-mail address, in any case', async () => {
    const client = freshClient();
    const signup = await userWithPassword(t, client, 'abc123');
    await t.database.db.updateTable('app_user').set({ email: 'li.lei@example.com' }).where('id', '=', Number(signup.uid)).execute();
    const result = await call(t, '/api/v4/login', { account: 'Li.Lei@Example.com', password: 'abc123' }, client);
    expect(userInfoOf(result).uid).toBe(signup.uid);
  });

  it('answers 12001 alike for an unknown account, a wrong password and a user without a password', async () => {
    const known = freshClient();
    await userWithPassword(t, known, 'abc123');
    const smsOnly = freshClient();
    await signInBySms(t, smsOnly);
    for (const [account, password] of [
      [freshClient().phone, 'abc123'],
      ['nobody@example.com', 'abc123'],
      [known.phone, 'abc124'],
      [smsOnly.phone, 'abc123'],
    ] as const) {
      const refused = await call(t, '/api/v4/login', { account, password }, freshClient());
      expect(refused.body).toEqual(WRONG_ACCOUNT_OR_PASSWORD);
      expect(refused.headers['set-cookie']).toBeUndefined();
    }
  });

  it('locks an account for an hour after failuresBeforeLock wrong passwords, even against the right one', async () => {
    const client = freshClient();
    await userWithPassword(t, client, 'abc123');
    for (let attempt = 1; attempt < AUTH_LIMITS.failuresBeforeLock; attempt += 1) {
      expectAnswer(
        await call(t, '/api/v4/login', { account: client.phone, password: `wrong${attempt}` }, freshClient()),
        WRONG_ACCOUNT_OR_PASSWORD,
      );
    }
    expectAnswer(await call(t, '/api/v4/login', { account: client.phone, password: 'wrong5' }, freshClient()), LOCKED);
    expectAnswer(await call(t, '/api/v4/login', { account: client.phone, password: 'abc123' }, client), LOCKED);

    await t.clock.advance((AUTH_LIMITS.lockSeconds - 10) * 1000);
    expectAnswer(await call(t, '/api/v4/login', { account: client.phone, password: 'abc123' }, client), LOCKED);
    await t.clock.advance(10_000);
    expect((await call(t, '/api/v4/login', { account: client.phone, password: 'abc123' }, client)).body).toMatchObject({ code: 10000 });
  });

  it('forgives earlier wrong passwords once the right one is given', async () => {
    const client = freshClient();
    await userWithPassword(t, client, 'abc123');
    for (let attempt = 1; attempt < AUTH_LIMITS.failuresBeforeLock; attempt += 1) {
      await call(t, '/api/v4/login', { account: client.phone, password: 'nope00' }, client);
    }
    expect((await call(t, '/api/v4/login', { account: client.phone, password: 'abc123' }, client)).body).toMatchObject({ code: 10000 });
    expectAnswer(await call(t, '/api/v4/login', { account: client.phone, password: 'nope00' }, client), WRONG_ACCOUNT_OR_PASSWORD);
  });

  it('locks an unknown account the same way, so the lock does not tell which accounts exist', async () => {
    const client = freshClient();
    for (let attempt = 1; attempt < AUTH_LIMITS.failuresBeforeLock; attempt += 1) {
      expectAnswer(await call(t, '/api/v4/login', { account: client.phone, password: 'abc123' }, freshClient()), WRONG_ACCOUNT_OR_PASSWORD);
    }
    expectAnswer(await call(t, '/api/v4/login', { account: client.phone, password: 'abc123' }, freshClient()), LOCKED);
  });

  it('counts parallel guesses: no more than failuresBeforeLock are checked', async () => {
    const client = freshClient();
    await userWithPassword(t, client, 'abc123');
    const guesses = await Promise.all(
      Array.from({ length: 3 * AUTH_LIMITS.failuresBeforeLock }, (_, index) =>
        call(t, '/api/v4/login', { account: client.phone, password: `guess${index}` }, freshClient()),
      ),
    );
    const checked = guesses.filter((guess) => guess.body['code'] === WRONG_ACCOUNT_OR_PASSWORD.code);
    expect(checked.length).toBeLessThanOrEqual(AUTH_LIMITS.failuresBeforeLock);
    // Refused ones were either still racing the checks under way (10064) or came after the lock.
    expect(guesses.every((guess) => [12001, 10062, 10064].includes(Number(guess.body['code'])))).toBe(true);
    expectAnswer(await call(t, '/api/v4/login', { account: client.phone, password: 'abc123' }, freshClient()), LOCKED);
  });

  it('never locks an account for many right passwords at once', async () => {
    const client = freshClient();
    await userWithPassword(t, client, 'abc123');
    const logins = await Promise.all(
      Array.from({ length: 3 * AUTH_LIMITS.failuresBeforeLock }, () =>
        call(t, '/api/v4/login', { account: client.phone, password: 'abc123' }, freshClient()),
      ),
    );
    expect(logins.every((login) => [10000, 10064].includes(Number(login.body['code'])))).toBe(true);
    const busy = logins.find((login) => login.body['code'] === 10064);
    if (busy !== undefined) expect(busy.body).toMatchObject({ message: '登录请求过于频繁，请稍后再试', retryafter: 1 });
    expectAnswer(await call(t, '/api/v4/login', { account: client.phone, password: 'abc123' }, freshClient()), { code: 10000 });
  });

  it('refuses a disabled account with 10063 only after the right password', async () => {
    const client = freshClient();
    const signup = await userWithPassword(t, client, 'abc123');
    await disableUser(t, signup.uid);
    expectAnswer(await call(t, '/api/v4/login', { account: client.phone, password: 'abc999' }, client), WRONG_ACCOUNT_OR_PASSWORD);
    expectAnswer(await call(t, '/api/v4/login', { account: client.phone, password: 'abc123' }, client), ABNORMAL);
  });

  it.each([
    [{ password: 'abc123' }, 'account', '请输入手机号或邮箱'],
    [{ account: '', password: 'abc123' }, 'account', '请输入手机号或邮箱'],
    [{ account: 'li.lei', password: 'abc123' }, 'account', '请输入正确的手机号或邮箱'],
    [{ account: `${'a'.repeat(25)}@example.com`, password: 'abc123' }, 'account', '请输入正确的手机号或邮箱'],
    [{ account: '13800138000' }, 'password', '密码不能为空'],
    [{ account: '13800138000', password: '' }, 'password', '密码不能为空'],
    [{ account: '13800138000', password: 'abc' }, 'password', '请输入6-20位密码'],
    [{ account: '13800138000', password: 'a'.repeat(21) }, 'password', '请输入6-20位密码'],
  ])('refuses %j with 10020 on %s: %s', async (fields, field, message) => {
    expectAnswer(await call(t, '/api/v4/login', fields, freshClient()), { code: 10020, message, field });
  });
});
