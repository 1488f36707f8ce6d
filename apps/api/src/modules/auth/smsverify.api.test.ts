import { AUTH_LIMITS } from '@xcad/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as CaptchaModule from './captcha';
import type { SmsMessage, SmsProvider, SmsSendResult } from '../sms/sms.provider';
import {
  call,
  createAuthTestApp,
  expectAnswer,
  freshClient,
  lastCode,
  otherCode,
  requestCode,
  signInBySms,
  type AuthTestApp,
  type Caller,
} from './auth.testing';

// The captcha text is the one random thing a test cannot read off the image; fix it.
const captcha = vi.hoisted(() => ({ text: 'HK4M' }));
vi.mock('./captcha', async (importOriginal) => {
  const original = await importOriginal<typeof CaptchaModule>();
  return { ...original, randomCaptchaText: (length: number) => captcha.text.slice(0, length) };
});

const TOO_FREQUENT = { code: 10061, message: '短信发送太多频繁，请稍等' };
const IMAGE_CODE_REQUIRED = { code: 10010, message: '请输入图形验证码' };
const IMAGE_CODE_INVALID = { code: 10008, message: '请填写正确的图形验证码' };

let t: AuthTestApp;

beforeAll(async () => {
  t = await createAuthTestApp();
});

afterAll(async () => {
  await t.close();
});

async function newImage(caller: Caller): Promise<void> {
  const image = await call(t, '/api/v4/imgverify', {}, caller);
  expect(image.body).toMatchObject({ code: 10000, message: expect.stringMatching(/^data:image\/png;base64,/) });
}

/** The answer's retryafter lies in [low, high]: the limits count real seconds, which tick during a test. */
function expectRetryAfterWithin(result: { body: Record<string, unknown> }, low: number, high: number): void {
  const retryafter = Number(result.body['retryafter']);
  expect(retryafter).toBeGreaterThanOrEqual(low);
  expect(retryafter).toBeLessThanOrEqual(high);
}

describe('POST /api/v4/smsverify and safsmsverify', () => {
  it('sends a 4-digit code the user receives as the SMS text', async () => {
    const client = freshClient();
    const sent = await call(t, '/api/v4/smsverify', { account: client.phone, verifytype: 'quicklogin' }, client);
    expect(sent).toMatchObject({ status: 200, body: { code: 10000, message: '' } });
    const [message] = t.outbox.messagesFor(client.phone);
    expect(message?.code).toMatch(/^\d{4}$/);
    expect(message?.text).toBe(`【迅捷CAD】您的验证码为${message?.code}，5分钟内有效，请勿泄露给他人。`);
  });

  it('sends to the number without its 86- prefix', async () => {
    const client = freshClient();
    const sent = await call(t, '/api/v4/safsmsverify', { account: `86-${client.phone}`, verifytype: 'quicklogin' }, client);
    expect(sent.body).toEqual({ code: 10000, message: '' });
    expect(t.outbox.messagesFor(client.phone)).toHaveLength(1);
  });

  it.each([
    [{ verifytype: 'quicklogin' }, 'account', '请输入手机号'],
    [{ account: '', verifytype: 'quicklogin' }, 'account', '请输入手机号'],
    [{ account: '1380013800', verifytype: 'quicklogin' }, 'account', '请您填写正确的11位手机号'],
    [{ account: '12800138000', verifytype: 'quicklogin' }, 'account', '请您填写正确的11位手机号'],
    [{ account: '13800138000', verifytype: 'login' }, 'verifytype', '验证类型错误'],
    [{ account: '13800138000', verifytype: 'quicklogin', imgcode: 'ab!' }, 'imgcode', '请填写正确的图形验证码'],
  ])('refuses %j with 10020 on %s: %s', async (fields, field, message) => {
    const client = freshClient();
    for (const path of ['/api/v4/smsverify', '/api/v4/safsmsverify']) {
      expectAnswer(await call(t, path, fields, client), { code: 10020, message, field });
    }
    expect(t.outbox.messagesFor('13800138000')).toEqual([]);
  });

  describe('what the purpose allows', () => {
    it('register: refuses a registered phone with 19003, told only to a right image code', async () => {
      const client = freshClient();
      await signInBySms(t, client);
      await t.clock.advance(61_000);
      const fields = { account: client.phone, verifytype: 'register' };
      expectAnswer(await call(t, '/api/v4/smsverify', fields, client), IMAGE_CODE_REQUIRED);
      await newImage(client);
      expectAnswer(await call(t, '/api/v4/smsverify', { ...fields, imgcode: 'AAAA' }, client), IMAGE_CODE_INVALID);
      await newImage(client);
      expectAnswer(await call(t, '/api/v4/smsverify', { ...fields, imgcode: captcha.text }, client), {
        code: 19003,
        message: '当前号码已被注册',
      });
    });

    it('register: always needs an image code (10010), then sends with the right one', async () => {
      const client = freshClient();
      expectAnswer(await call(t, '/api/v4/smsverify', { account: client.phone, verifytype: 'register' }, client), IMAGE_CODE_REQUIRED);
      await newImage(client);
      const sent = await call(t, '/api/v4/smsverify', { account: client.phone, verifytype: 'register', imgcode: captcha.text }, client);
      expect(sent.body).toEqual({ code: 10000, message: '' });
    });

    it('forgetpwd: refuses an unregistered phone with 19002, sends to a registered one', async () => {
      const client = freshClient();
      const refused = await call(t, '/api/v4/safsmsverify', { account: client.phone, verifytype: 'forgetpwd' }, client);
      expectAnswer(refused, { code: 19002, message: '当前账号未注册，请先注册！' });
      expect(t.outbox.messagesFor(client.phone)).toEqual([]);

      await signInBySms(t, client);
      await t.clock.advance(61_000);
      expect((await call(t, '/api/v4/safsmsverify', { account: client.phone, verifytype: 'forgetpwd' }, client)).body).toMatchObject({
        code: 10000,
      });
    });

    it('bindmobile: refuses a registered phone with 19003', async () => {
      const client = freshClient();
      await signInBySms(t, client);
      await t.clock.advance(61_000);
      expectAnswer(await call(t, '/api/v4/smsverify', { account: client.phone, verifytype: 'bindmobile' }, client), {
        code: 19003,
        message: '当前号码已被注册',
      });
    });
  });

  it('refuses a locked phone with 10062 before anything else', async () => {
    const client = freshClient();
    const code = await requestCode(t, client, 'quicklogin');
    for (let attempt = 0; attempt < AUTH_LIMITS.failuresBeforeLock; attempt += 1) {
      await call(t, '/api/v4/loginquick', { account: client.phone, smscode: otherCode(code) }, client);
    }
    await t.clock.advance(61_000);
    const refused = await call(t, '/api/v4/smsverify', { account: client.phone, verifytype: 'quicklogin' }, client);
    expectAnswer(refused, { code: 10062, message: '操作频繁，请1小时后再试' });
    expect(t.outbox.messagesFor(client.phone)).toHaveLength(1);

    await t.clock.advance(AUTH_LIMITS.lockSeconds * 1000);
    expect((await call(t, '/api/v4/smsverify', { account: client.phone, verifytype: 'quicklogin' }, client)).body).toMatchObject({
      code: 10000,
    });
  });

  describe('rate limits', () => {
    it('refuses a second code within 60 s with retryafter, and sends at 61 s', async () => {
      const client = freshClient();
      // The wait is counted in whole seconds and real time runs under the test clock: start the
      // first send just after a second begins, so that 59 s later is still the 59th second
      // (started late in a second, the 59.1 s that pass here would read as 60).
      await t.clock.advance(1_000 - (t.clock.now() % 1_000) + 1);
      await requestCode(t, client, 'quicklogin');
      await t.clock.advance(59_000);
      const early = await call(t, '/api/v4/smsverify', { account: client.phone, verifytype: 'quicklogin' }, client);
      expectAnswer(early, { ...TOO_FREQUENT, retryafter: 1 });
      // The wait is per phone, whatever the purpose or endpoint.
      expectAnswer(await call(t, '/api/v4/safsmsverify', { account: client.phone, verifytype: 'quicklogin' }, client), TOO_FREQUENT);

      await t.clock.advance(2_000);
      expect((await call(t, '/api/v4/smsverify', { account: client.phone, verifytype: 'quicklogin' }, client)).body).toEqual({
        code: 10000,
        message: '',
      });
      expect(t.outbox.messagesFor(client.phone)).toHaveLength(2);
    });

    it('caps one phone at smsPerPhonePerHour codes an hour, from any device', async () => {
      const phone = freshClient().phone;
      const firstSentAt = Math.floor(t.clock.now() / 1000);
      for (let send = 0; send < AUTH_LIMITS.smsPerPhonePerHour; send += 1) {
        const sender = { ...freshClient(), phone };
        expect((await call(t, '/api/v4/smsverify', { account: phone, verifytype: 'quicklogin' }, sender)).body).toMatchObject({
          code: 10000,
        });
        await t.clock.advance(61_000);
      }
      const before = Math.floor(t.clock.now() / 1000);
      const refused = await call(t, '/api/v4/smsverify', { account: phone, verifytype: 'quicklogin' }, freshClient());
      const now = Math.floor(t.clock.now() / 1000);
      expectAnswer(refused, TOO_FREQUENT);
      // The first code went out in the second firstSentAt was read or the next one; real time runs.
      expectRetryAfterWithin(refused, firstSentAt + 3_600 - now, firstSentAt + 1 + 3_600 - before);

      await t.clock.advance((firstSentAt + 3_600 - now) * 1000);
      expect((await call(t, '/api/v4/smsverify', { account: phone, verifytype: 'quicklogin' }, freshClient())).body).toMatchObject({
        code: 10000,
      });
      expect(t.outbox.messagesFor(phone)).toHaveLength(AUTH_LIMITS.smsPerPhonePerHour + 1);
    });

    it('caps one address at smsPerIpPerHour codes an hour across phones', async () => {
      const ip = '10.99.0.1';
      const firstSentAt = Math.floor(t.clock.now() / 1000);
      for (let send = 0; send < AUTH_LIMITS.smsPerIpPerHour; send += 1) {
        const sender = { ...freshClient(), ip };
        await newImage(sender);
        const sent = await call(t, '/api/v4/smsverify', { account: sender.phone, verifytype: 'quicklogin', imgcode: captcha.text }, sender);
        expect(sent.body).toMatchObject({ code: 10000 });
      }
      const sender = { ...freshClient(), ip };
      await newImage(sender);
      const refused = await call(
        t,
        '/api/v4/smsverify',
        { account: sender.phone, verifytype: 'quicklogin', imgcode: captcha.text },
        sender,
      );
      expectAnswer(refused, TOO_FREQUENT);
      const now = Math.floor(t.clock.now() / 1000);
      expectRetryAfterWithin(refused, firstSentAt + 3_600 - now, firstSentAt + 1 + 3_600 - (now - 1));
      expect(t.outbox.messagesFor(sender.phone)).toEqual([]);
    });
  });

  describe('the image captcha demanded of automated-looking senders', () => {
    it('after captchaAfterIpSendsPerHour sends from one address: 10010, 10008 when wrong, then sent with the right code', async () => {
      const ip = '10.98.0.1';
      for (let send = 0; send < AUTH_LIMITS.captchaAfterIpSendsPerHour; send += 1) {
        const sender = { ...freshClient(), ip };
        expect((await call(t, '/api/v4/smsverify', { account: sender.phone, verifytype: 'quicklogin' }, sender)).body).toMatchObject({
          code: 10000,
        });
      }
      const sender = { ...freshClient(), ip };
      const fields = { account: sender.phone, verifytype: 'quicklogin' };
      expectAnswer(await call(t, '/api/v4/smsverify', fields, sender), IMAGE_CODE_REQUIRED);
      expectAnswer(await call(t, '/api/v4/smsverify', { ...fields, imgcode: '' }, sender), IMAGE_CODE_REQUIRED);

      await newImage(sender);
      expectAnswer(await call(t, '/api/v4/smsverify', { ...fields, imgcode: 'AAAA' }, sender), IMAGE_CODE_INVALID);
      // A wrong guess used the image up: even the right answer needs a new one.
      expectAnswer(await call(t, '/api/v4/smsverify', { ...fields, imgcode: captcha.text }, sender), IMAGE_CODE_INVALID);
      expect(t.outbox.messagesFor(sender.phone)).toEqual([]);

      await newImage(sender);
      expect((await call(t, '/api/v4/smsverify', { ...fields, imgcode: captcha.text }, sender)).body).toEqual({ code: 10000, message: '' });
      expect(lastCode(t, sender.phone)).toMatch(/^\d{4}$/);
    });

    it('when one device asks codes for a second phone within the hour; the answer is case-insensitive', async () => {
      const device = freshClient();
      await requestCode(t, device, 'quicklogin');
      const second = { ...device, phone: freshClient().phone };
      expectAnswer(await call(t, '/api/v4/smsverify', { account: second.phone, verifytype: 'quicklogin' }, second), IMAGE_CODE_REQUIRED);

      await newImage(second);
      const sent = await call(
        t,
        '/api/v4/smsverify',
        { account: second.phone, verifytype: 'quicklogin', imgcode: captcha.text.toLowerCase() },
        second,
      );
      expect(sent.body).toEqual({ code: 10000, message: '' });
    });

    it('checks an image code whenever one is given: none shown, expired or of another device answer 10008', async () => {
      const client = freshClient();
      const fields = { account: client.phone, verifytype: 'quicklogin', imgcode: captcha.text };
      expectAnswer(await call(t, '/api/v4/smsverify', fields, client), IMAGE_CODE_INVALID);

      await newImage(freshClient());
      expectAnswer(await call(t, '/api/v4/smsverify', fields, client), IMAGE_CODE_INVALID);

      await newImage(client);
      await t.clock.advance((AUTH_LIMITS.captchaTtlSeconds + 1) * 1000);
      expectAnswer(await call(t, '/api/v4/smsverify', fields, client), IMAGE_CODE_INVALID);
      expect(t.outbox.messagesFor(client.phone)).toEqual([]);
    });
  });
});

/** A provider whose next answer the test chooses. */
class ScriptedSmsProvider implements SmsProvider {
  readonly name = 'aliyun';
  readonly sent: SmsMessage[] = [];
  next: SmsSendResult = { ok: true, providerMessageId: 'm-1' };

  send(message: SmsMessage): Promise<SmsSendResult> {
    this.sent.push(message);
    return Promise.resolve(this.next);
  }
}

describe('when the SMS provider fails', () => {
  const provider = new ScriptedSmsProvider();
  let failing: AuthTestApp;

  beforeAll(async () => {
    failing = await createAuthTestApp({ smsProvider: provider });
  });

  afterAll(async () => {
    await failing.close();
  });

  async function loginWithSentCode(client: Caller & { phone: string }) {
    const code = provider.sent.at(-1)?.code ?? '0000';
    return call(failing, '/api/v4/loginquick', { account: client.phone, smscode: code }, client);
  }

  it('answers 10061 when the provider rate-limits, and leaves no usable code', async () => {
    const client = freshClient();
    provider.next = { ok: false, reason: 'rate-limited', detail: 'isv.BUSINESS_LIMIT_CONTROL' };
    expectAnswer(await call(failing, '/api/v4/smsverify', { account: client.phone, verifytype: 'quicklogin' }, client), TOO_FREQUENT);
    expectAnswer(await loginWithSentCode(client), { code: 19310, message: '请先获取短信验证码' });
  });

  it('answers 10016 on a provider error, logs it, and lets the user retry at once', async () => {
    const client = freshClient();
    provider.next = { ok: false, reason: 'provider-error', detail: 'HTTP 500: answer is not JSON' };
    const refused = await call(failing, '/api/v4/smsverify', { account: client.phone, verifytype: 'quicklogin' }, client);
    expectAnswer(refused, { code: 10016, message: '短信发送失败，请稍后重试' });
    expect(failing.logs.some((line) => line['msg'] === 'sms code not sent' && line['detail'] === 'HTTP 500: answer is not JSON')).toBe(
      true,
    );
    expectAnswer(await loginWithSentCode(client), { code: 19310 });

    provider.next = { ok: true, providerMessageId: 'm-2' };
    expect((await call(failing, '/api/v4/smsverify', { account: client.phone, verifytype: 'quicklogin' }, client)).body).toEqual({
      code: 10000,
      message: '',
    });
    expect((await loginWithSentCode(client)).body).toMatchObject({ code: 10000 });
  });

  it('answers 10020 on the account when the provider refuses the number', async () => {
    const client = freshClient();
    provider.next = { ok: false, reason: 'invalid-phone', detail: 'isv.MOBILE_NUMBER_ILLEGAL' };
    expectAnswer(await call(failing, '/api/v4/smsverify', { account: client.phone, verifytype: 'quicklogin' }, client), {
      code: 10020,
      message: '请您填写正确的11位手机号',
      field: 'account',
    });
  });
});
