import { describe, expect, it } from 'vitest';
import {
  INITIAL_POLL_STATE,
  LOGIN_POLL_LIMITS,
  cachedSessionOf,
  centredPopupFeatures,
  countdownEndsAt,
  forgotPasswordMessage,
  initialLoginFlowState,
  loginFlowReducer,
  nextPollState,
  passwordLoginMessage,
  readCachedSession,
  refusalOf,
  retryAfterOf,
  registerMessage,
  safeRedirectPath,
  secondsLeft,
  smsLoginFailure,
  smsSendFailure,
  timedStepOf,
  type LoginFlowAction,
  type LoginFlowState,
  type PollState,
} from './login-flow';

function run(state: LoginFlowState, ...actions: LoginFlowAction[]): LoginFlowState {
  return actions.reduce(loginFlowReducer, state);
}

describe('login views (spec §2, §4)', () => {
  it('opens on the WeChat QR in the modal, and on the phone view on /loginPhone', () => {
    expect(initialLoginFlowState('modal').view).toBe('wechat');
    expect(initialLoginFlowState('modal', 'phone').view).toBe('phone');
    expect(initialLoginFlowState('page').view).toBe('phone');
    expect(initialLoginFlowState('page', 'wechat').view).toBe('phone');
  });

  it('moves wechat <-> phone, login <-> register and to forgot password', () => {
    const modal = initialLoginFlowState('modal');
    expect(run(modal, { type: 'navigate', view: 'phone' }).view).toBe('phone');
    expect(run(modal, { type: 'navigate', view: 'phone' }, { type: 'navigate', view: 'wechat' }).view).toBe('wechat');
    expect(run(modal, { type: 'navigate', view: 'register' }).view).toBe('register');
    expect(run(modal, { type: 'navigate', view: 'register' }, { type: 'navigate', view: 'phone' }).view).toBe('phone');
    expect(run(modal, { type: 'navigate', view: 'forgot' }).view).toBe('forgot');
  });

  it('keeps /loginPhone away from the QR view a phone cannot scan', () => {
    expect(run(initialLoginFlowState('page'), { type: 'navigate', view: 'wechat' }).view).toBe('phone');
  });

  it('switches the phone tabs, and opens a chosen tab from another view', () => {
    const phone = initialLoginFlowState('modal', 'phone');
    expect(phone.tab).toBe('sms');
    expect(run(phone, { type: 'selectTab', tab: 'password' }).tab).toBe('password');
    const fromForgot = run(phone, { type: 'navigate', view: 'forgot' }, { type: 'navigate', view: 'phone', tab: 'password' });
    expect(fromForgot).toMatchObject({ view: 'phone', tab: 'password' });
  });

  it('after a first SMS login shows the notice, then the set-password view, then logs in with the phone', () => {
    const phone = initialLoginFlowState('modal', 'phone');
    const notice = run(phone, { type: 'firstSmsLogin', phone: '13800138000' });
    expect(notice.view).toBe('notRegistered');
    expect(timedStepOf('notRegistered')).toEqual({ delayMs: 3_000, step: 'noticeElapsed' });
    const setPassword = run(notice, { type: 'noticeElapsed' });
    expect(setPassword.view).toBe('setPassword');
    const done = run(setPassword, { type: 'passwordSet', password: 'abc123' });
    expect(done.view).toBe('setPasswordDone');
    expect(done.credentials).toEqual({ account: '13800138000', password: 'abc123' });
    expect(timedStepOf('setPasswordDone')).toEqual({ delayMs: 3_000, step: 'autoLogin' });
  });

  it('logs in 1 s after registering; a changed password waits for 立即登录', () => {
    const registered = run(initialLoginFlowState('modal', 'register'), {
      type: 'registered',
      credentials: { account: '13800138000', password: 'abc123' },
    });
    expect(registered).toMatchObject({ view: 'registered', credentials: { account: '13800138000', password: 'abc123' } });
    expect(timedStepOf('registered')).toEqual({ delayMs: 1_000, step: 'autoLogin' });
    const changed = run(initialLoginFlowState('modal', 'forgot'), {
      type: 'passwordReset',
      credentials: { account: '13900139000', password: 'newpass1' },
    });
    expect(changed.view).toBe('passwordChanged');
    expect(timedStepOf('passwordChanged')).toBeNull();
    expect(timedStepOf('phone')).toBeNull();
  });

  it('ignores a late answer that belongs to a view the person already left', () => {
    const wechat = initialLoginFlowState('modal');
    expect(run(wechat, { type: 'noticeElapsed' })).toBe(wechat);
    expect(run(wechat, { type: 'registered', credentials: { account: 'a', password: 'b' } })).toBe(wechat);
    expect(run(wechat, { type: 'firstSmsLogin', phone: '13800138000' })).toBe(wechat);
    expect(run(wechat, { type: 'passwordSet', password: 'abc123' })).toBe(wechat);
  });
});

describe('SMS resend countdown (spec §4, §9: 60 s)', () => {
  it('counts 60 s from the send, rounding up, and is 0 when idle or over', () => {
    const endsAt = countdownEndsAt(1_000_000);
    expect(secondsLeft(endsAt, 1_000_000)).toBe(60);
    expect(secondsLeft(endsAt, 1_000_001)).toBe(60);
    expect(secondsLeft(endsAt, 1_001_000)).toBe(59);
    expect(secondsLeft(endsAt, 1_059_999)).toBe(1);
    expect(secondsLeft(endsAt, 1_060_000)).toBe(0);
    expect(secondsLeft(endsAt, 2_000_000)).toBe(0);
    expect(secondsLeft(null, 1_000_000)).toBe(0);
  });
});

describe('SMS send refusals (spec §8)', () => {
  it('asks for an image captcha on 10010/19001 and on an unknown refusal without an image', () => {
    expect(smsSendFailure({ code: 10010, message: 'x' }, false)).toEqual({ captcha: 'show', formError: 4, message: '请输入图形验证码' });
    expect(smsSendFailure({ code: 19001, message: 'x' }, false).captcha).toBe('show');
    expect(smsSendFailure({ code: 10999, message: 'x' }, false).captcha).toBe('show');
  });

  it('replaces the image after a wrong image code, or any unknown refusal while one is shown', () => {
    for (const code of [10008, 10009, 10011, 18006]) {
      expect(smsSendFailure({ code, message: 'x' }, true)).toEqual({ captcha: 'replace', formError: 9, message: '请填写正确的图形验证码' });
    }
    expect(smsSendFailure({ code: 10999, message: 'x' }, true)).toEqual({
      captcha: 'replace',
      formError: 9,
      message: '请填写正确的图形验证码',
    });
  });

  it('reads 10061 beyond the 60 s wait as the hourly cap, within it as the resend wait', () => {
    expect(smsSendFailure({ code: 10061, message: '短信发送太多频繁，请稍等' }, false, 3_000)).toEqual({
      captcha: 'keep',
      formError: 10,
      message: '操作频繁，请1小时后再试',
    });
    expect(smsSendFailure({ code: 10061, message: '短信发送太多频繁，请稍等' }, false, 42)).toEqual({
      captcha: 'keep',
      formError: 3,
      message: '短信发送太多频繁，请稍等',
    });
    expect(smsSendFailure({ code: 28001, message: '' }, true).message).toBe('短信发送太多频繁，请稍等');
    expect(smsSendFailure({ code: 10062, message: '' }, false)).toMatchObject({ formError: 10, message: '操作频繁，请1小时后再试' });
  });

  it('shows the catalogue message of registered and unregistered phones without a captcha', () => {
    expect(smsSendFailure({ code: 19003, message: '' }, false)).toMatchObject({ captcha: 'keep', message: '当前号码已被注册' });
    expect(smsSendFailure({ code: 10007, message: '' }, false)).toMatchObject({ captcha: 'keep', message: '该账号已被注册' });
    expect(smsSendFailure({ code: 19002, message: '' }, true)).toMatchObject({ captcha: 'keep', message: '当前账号未注册，请先注册！' });
  });

  it('never asks for a captcha because the network or the request failed', () => {
    expect(smsSendFailure({ code: -1, message: '网络异常，请检查网络后重试' }, false)).toEqual({
      captcha: 'keep',
      formError: 13,
      message: '网络异常，请检查网络后重试',
    });
    expect(smsSendFailure({ code: 10002, message: '请求签名校验失败' }, false).captcha).toBe('keep');
    expect(smsSendFailure({ code: 10020, message: '请您填写正确的11位手机号' }, false)).toMatchObject({
      captcha: 'keep',
      message: '请您填写正确的11位手机号',
    });
  });
});

describe('login refusals (spec §8)', () => {
  it('maps every wrong-SMS-code code to 请输入正确的验证码, 19312 to 验证码错误！', () => {
    for (const code of [12007, 12025, 19004, 19311, 19313]) {
      expect(smsLoginFailure({ code, message: 'server' })).toEqual({ formError: 8, message: '请输入正确的验证码' });
    }
    expect(smsLoginFailure({ code: 19312, message: 'server' })).toEqual({ formError: 8, message: '验证码错误！' });
    expect(smsLoginFailure({ code: 19310, message: 'server' }).formError).toBe(11);
    expect(smsLoginFailure({ code: 10063, message: 'server' }).message).toBe('账号异常，请联系客服');
    expect(smsLoginFailure({ code: 10062, message: 'server' })).toEqual({ formError: 10, message: '操作频繁，请1小时后再试' });
    expect(smsLoginFailure({ code: 19002, message: '当前账号未注册，请先注册！' }).message).toBe('当前账号未注册，请先注册！');
  });

  it('reads a failed account login as 账号密码错误 and keeps other server messages', () => {
    expect(passwordLoginMessage({ code: 12001, message: 'anything' })).toBe('账号密码错误');
    expect(passwordLoginMessage({ code: 10063, message: 'anything' })).toBe('账号异常，请联系客服');
    expect(passwordLoginMessage({ code: 10062, message: '操作频繁，请1小时后再试' })).toBe('操作频繁，请1小时后再试');
  });

  it('reads 19004 at registration as 验证码错误，请重试！ and registered phones by their message', () => {
    expect(registerMessage({ code: 19004, message: 'x' })).toBe('验证码错误，请重试！');
    expect(registerMessage({ code: 19003, message: 'x' })).toBe('当前号码已被注册');
    expect(registerMessage({ code: 10007, message: 'x' })).toBe('该账号已被注册');
    expect(registerMessage({ code: -1, message: '网络异常' })).toBe('网络异常');
    expect(forgotPasswordMessage({ code: 12007, message: 'x' })).toBe('请输入正确的验证码');
    expect(forgotPasswordMessage({ code: 19002, message: 'x' })).toBe('当前账号未注册，请先注册！');
  });
});

describe('QR login polling (spec §4: every 1 s, with a retry limit)', () => {
  const answer = (code: number, message = '') => ({ code, message });
  const after = (state: PollState, ...codes: number[]) => codes.reduce((s, code) => nextPollState(s, answer(code)), state);

  it('polls every second', () => {
    expect(LOGIN_POLL_LIMITS.intervalMs).toBe(1_000);
  });

  it('follows pending -> scanned -> done', () => {
    expect(after(INITIAL_POLL_STATE, 19005).status).toBe('pending');
    expect(after(INITIAL_POLL_STATE, 19005, 19006).status).toBe('scanned');
    expect(after(INITIAL_POLL_STATE, 19005, 19006, 10000).status).toBe('done');
  });

  it('shows the expired cover on 19007 and the abnormal-account cover on 10063', () => {
    expect(after(INITIAL_POLL_STATE, 19005, 19007).status).toBe('expired');
    const illegal = nextPollState(INITIAL_POLL_STATE, answer(10063, '账号异常，请联系客服'));
    expect(illegal).toMatchObject({ status: 'illegal', message: '账号异常，请联系客服' });
  });

  it('gives up after 120 polls without a result', () => {
    let state = INITIAL_POLL_STATE;
    for (let i = 0; i < 119; i += 1) state = nextPollState(state, answer(19005));
    expect(state.status).toBe('pending');
    state = nextPollState(state, answer(19006));
    expect(state).toMatchObject({ status: 'expired', polls: 120 });
  });

  it('gives up after 3 failed requests in a row, but not when they are interrupted by an answer', () => {
    expect(after(INITIAL_POLL_STATE, -1, -2).status).toBe('pending');
    expect(after(INITIAL_POLL_STATE, -1, -2, -1).status).toBe('expired');
    expect(after(INITIAL_POLL_STATE, -1, -1, 19006, -1, -1).status).toBe('scanned');
  });

  it('ends the QR on another refusal with its message, and ignores answers once it ended', () => {
    expect(nextPollState(INITIAL_POLL_STATE, answer(19009, '第三方登录失败，请重试'))).toMatchObject({
      status: 'expired',
      message: '第三方登录失败，请重试',
    });
    const done = after(INITIAL_POLL_STATE, 10000);
    expect(nextPollState(done, answer(19007))).toBe(done);
  });
});

describe('the cached QR session (spec §4, §9: 60 s)', () => {
  const guid = { logintag: 'tag12345678', qrurl: 'http://site.test/scanlogin/tag12345678', qrtype: 'link' as const, expiresin: 300 };

  it('is reused within 60 s and not after', () => {
    const session = cachedSessionOf(guid, 1_000_000);
    const raw = JSON.stringify(session);
    expect(readCachedSession(raw, 1_000_000)).toEqual(session);
    expect(readCachedSession(raw, 1_059_999)?.logintag).toBe('tag12345678');
    expect(readCachedSession(raw, 1_060_000)).toBeNull();
  });

  it('never outlives the logintag on the server', () => {
    const session = cachedSessionOf({ ...guid, expiresin: 20 }, 1_000_000);
    expect(readCachedSession(JSON.stringify(session), 1_020_000)).toBeNull();
  });

  it('reads anything corrupted or from a clock set back as no session', () => {
    expect(readCachedSession(null, 0)).toBeNull();
    expect(readCachedSession('{not json', 0)).toBeNull();
    expect(readCachedSession('"text"', 0)).toBeNull();
    expect(readCachedSession(JSON.stringify({ ...guid, qrtype: 'other', expiresAtMs: 10 }), 0)).toBeNull();
    expect(readCachedSession(JSON.stringify({ ...guid, logintag: '', expiresAtMs: 10 }), 0)).toBeNull();
    const session = cachedSessionOf(guid, 1_000_000);
    expect(readCachedSession(JSON.stringify(session), 900_000)).toBeNull();
  });
});

describe('QQ popup and /loginPhone redirect', () => {
  it('centres the 720x650 popup on the browser window', () => {
    expect(centredPopupFeatures({ width: 720, height: 650 }, { left: 100, top: 50, width: 1440, height: 900 })).toBe(
      'width=720,height=650,left=460,top=175',
    );
    expect(centredPopupFeatures({ width: 720, height: 650 }, { left: 0, top: 0, width: 375, height: 600 })).toBe(
      'width=720,height=650,left=0,top=0',
    );
  });

  it('goes back only to paths of this site', () => {
    expect(safeRedirectPath('/personal.html')).toBe('/personal.html');
    expect(safeRedirectPath('/en/personal-base.html?tab=2#x')).toBe('/en/personal-base.html?tab=2#x');
    expect(safeRedirectPath(null)).toBe('/');
    expect(safeRedirectPath('')).toBe('/');
    expect(safeRedirectPath('https://evil.test/')).toBe('/');
    expect(safeRedirectPath('//evil.test/')).toBe('/');
    expect(safeRedirectPath('/\\evil.test/')).toBe('/');
    expect(safeRedirectPath('/\t/evil.test/')).toBe('/');
    expect(safeRedirectPath('javascript:alert(1)')).toBe('/');
  });
});

describe('reading a failed call', () => {
  it('keeps the code and message of a refusal and reads anything else as a network failure', async () => {
    const { ApiClientError } = await import('@xcad/protocol');
    expect(refusalOf(new ApiClientError({ code: 12001, message: '账号密码错误' }))).toEqual({ code: 12001, message: '账号密码错误' });
    expect(refusalOf(new TypeError('Failed to fetch'))).toEqual({ code: -1, message: '网络异常，请检查网络后重试' });
  });

  it('reads retryafter from the answer fields passed on with the refusal', () => {
    expect(retryAfterOf(Object.assign(new Error('x'), { details: { retryafter: 3_000 } }))).toBe(3_000);
    expect(retryAfterOf(Object.assign(new Error('x'), { details: { retryafter: '42' } }))).toBe(42);
    expect(retryAfterOf(new Error('x'))).toBeUndefined();
    expect(retryAfterOf(Object.assign(new Error('x'), { details: { retryafter: 'soon' } }))).toBeUndefined();
  });
});
