import { describe, expect, it } from 'vitest';
import { PROTOCOL_ERRORS } from './envelope';
import {
  ApiError,
  CLIENT_ERRORS,
  LOGIN_ERRORS,
  PASSWORD_FORM_ERROR,
  PASSWORD_FORM_MESSAGES,
  REGISTER_ERRORS,
  SMS_FORM_ERROR,
  SMS_FORM_MESSAGES,
  SMS_SEND_ERRORS,
  loginErrorOf,
  primaryOf,
  registerErrorOf,
  smsSendErrorOf,
  smsSendOutcome,
  taskStateOf,
} from './errors';

describe('SMS send codes (spec §8)', () => {
  it.each([
    [10007, 'accountRegistered', '该账号已被注册'],
    [10008, 'imageCodeInvalid', '请填写正确的图形验证码'],
    [10009, 'imageCodeInvalid', '请填写正确的图形验证码'],
    [10011, 'imageCodeInvalid', '请填写正确的图形验证码'],
    [18006, 'imageCodeInvalid', '请填写正确的图形验证码'],
    [10061, 'tooFrequent', '短信发送太多频繁，请稍等'],
    [28001, 'tooFrequent', '短信发送太多频繁，请稍等'],
    [28002, 'tooFrequent', '短信发送太多频繁，请稍等'],
    [23019, 'tooFrequent', '短信发送太多频繁，请稍等'],
    [19003, 'phoneRegistered', '当前号码已被注册'],
    [19002, 'accountNotRegistered', '当前账号未注册，请先注册！'],
  ])('%i reads %s: %s', (code, kind, message) => {
    expect(smsSendErrorOf(code)).toEqual({ code, kind, message });
  });

  it('knows 10005, 10010, 19001 and 10015', () => {
    expect(smsSendErrorOf(10005)?.kind).toBe('imageCodeWrong');
    expect(smsSendErrorOf(10010)?.kind).toBe('imageCodeRequired');
    expect(smsSendErrorOf(19001)?.kind).toBe('imageCodeRequired');
    expect(smsSendErrorOf(10015)?.kind).toBe('codeWrongOrTooFrequent');
  });

  it('does not know success or foreign codes', () => {
    expect(smsSendErrorOf(10000)).toBeUndefined();
    expect(smsSendErrorOf(12345)).toBeUndefined();
  });

  it('gives every group a message', () => {
    for (const group of Object.values(SMS_SEND_ERRORS)) expect(group.message).not.toBe('');
  });
});

describe('login and register codes (spec §8)', () => {
  it.each([12007, 12025, 19004, 19311, 19313])('%i is a wrong SMS code', (code) => {
    expect(loginErrorOf(code)).toEqual({ code, kind: 'wrongSmsCode', message: '请输入正确的验证码' });
  });

  it('has the other login messages', () => {
    expect(loginErrorOf(19312)?.message).toBe('验证码错误！');
    expect(loginErrorOf(19310)?.kind).toBe('smsCodeRequired');
    expect(loginErrorOf(10063)?.message).toBe('账号异常，请联系客服');
    expect(LOGIN_ERRORS.wrongAccountOrPassword.message).toBe('账号密码错误');
    expect(loginErrorOf(LOGIN_ERRORS.wrongAccountOrPassword.codes[0])?.kind).toBe('wrongAccountOrPassword');
  });

  it('reads 19004 differently when registering', () => {
    expect(registerErrorOf(19004)?.message).toBe('验证码错误，请重试！');
    expect(loginErrorOf(19004)?.message).toBe('请输入正确的验证码');
    expect(primaryOf(REGISTER_ERRORS.wrongSmsCode)).toEqual({ code: 19004, message: '验证码错误，请重试！' });
  });

  it('gives no two login groups the same code', () => {
    const codes = Object.values(LOGIN_ERRORS).flatMap((group) => group.codes);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe('taskStateOf (spec §7, §8)', () => {
  it.each([
    [10000, 'done'],
    [19000, 'done'],
    [20000, 'processing'],
    [11000, 'continue'],
    [18000, 'failed'],
    [19026, 'failed'],
    [10001, 'unknown'],
    [0, 'unknown'],
  ] as const)('%i is %s', (code, state) => {
    expect(taskStateOf(code)).toBe(state);
  });
});

describe('form error codes (spec §5)', () => {
  it('numbers the SMS login form errors 0 to 13', () => {
    expect(SMS_FORM_ERROR).toEqual({
      none: 0,
      wrongPhone: 1,
      smsSending: 2,
      smsWaiting: 3,
      imageCodeNeeded: 4,
      emptyPhone: 5,
      emptySms: 6,
      emptyImageCode: 7,
      wrongSmsCode: 8,
      wrongImageCode: 9,
      tooFrequent: 10,
      smsCodeNeeded: 11,
      agreementNotAccepted: 12,
      networkError: 13,
    });
    expect(Object.keys(SMS_FORM_MESSAGES).map(Number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });

  it("has the spec's SMS form messages", () => {
    expect(SMS_FORM_MESSAGES[0]).toBe('');
    expect(SMS_FORM_MESSAGES[1]).toBe('请您填写正确的11位手机号');
    expect(SMS_FORM_MESSAGES[6]).toBe('请输入验证码');
    expect(SMS_FORM_MESSAGES[8]).toBe('请输入正确的验证码');
    expect(SMS_FORM_MESSAGES[9]).toBe('请填写正确的图形验证码');
    expect(SMS_FORM_MESSAGES[10]).toBe('操作频繁，请1小时后再试');
    for (let code = 1; code <= 13; code++) {
      expect(SMS_FORM_MESSAGES[code as keyof typeof SMS_FORM_MESSAGES]).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('numbers the password login form errors 1, 5, 10, 11, 12', () => {
    expect(PASSWORD_FORM_ERROR).toEqual({ none: 0, wrongPhone: 1, emptyPhone: 5, wrongPass: 10, wrongPassword: 11, emptyPassword: 12 });
    expect(PASSWORD_FORM_MESSAGES[11]).toBe('账号密码错误');
    expect(PASSWORD_FORM_MESSAGES[12]).toBe('密码不能为空');
  });
});

describe('smsSendOutcome (spec §8)', () => {
  it('reports success on 10000 with or without an image', () => {
    expect(smsSendOutcome(10000, false)).toEqual({ kind: 'sent' });
    expect(smsSendOutcome(10000, true)).toEqual({ kind: 'sent' });
  });

  it('fetches an image captcha when none is shown and the server refuses', () => {
    for (const code of [10010, 19001, 12345]) {
      expect(smsSendOutcome(code, false)).toEqual({ kind: 'imageCodeNeeded', formError: 4, message: '请输入图形验证码' });
    }
  });

  it('calls the image code wrong when one is shown and the server refuses', () => {
    for (const code of [10010, 19001, 12345, 10008, 18006]) {
      expect(smsSendOutcome(code, true)).toEqual({ kind: 'wrongImageCode', formError: 9, message: '请填写正确的图形验证码' });
    }
  });

  it('shows the own message of codes that have one', () => {
    expect(smsSendOutcome(10007, true)).toEqual({ kind: 'refused', code: 10007, message: '该账号已被注册' });
    expect(smsSendOutcome(19002, false)).toEqual({ kind: 'refused', code: 19002, message: '当前账号未注册，请先注册！' });
    expect(smsSendOutcome(28001, false)).toEqual({ kind: 'refused', code: 28001, message: '短信发送太多频繁，请稍等' });
    expect(smsSendOutcome(19003, true)).toMatchObject({ kind: 'refused', message: '当前号码已被注册' });
  });

  it('treats a wrong image code as wrong even if the form lost track of the image', () => {
    expect(smsSendOutcome(10008, false)).toMatchObject({ kind: 'wrongImageCode', formError: 9 });
    expect(smsSendOutcome(10005, false)).toMatchObject({ kind: 'wrongImageCode', message: SMS_SEND_ERRORS.imageCodeWrong.message });
  });
});

describe('ApiError', () => {
  it('carries a protocol failure with its HTTP status', () => {
    const error = ApiError.protocol('badSignature', 'datasign mismatch for /api/v4/login');
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe(10002);
    expect(error.httpStatus).toBe(401);
    expect(error.logMessage).toBe('datasign mismatch for /api/v4/login');
    expect(error.message).toBe('datasign mismatch for /api/v4/login');
    expect(error.toEnvelope()).toEqual({ code: 10002, message: '请求签名校验失败' });
  });

  it('answers business refusals with HTTP 200 and the first code of the group', () => {
    const error = ApiError.business(SMS_SEND_ERRORS.tooFrequent);
    expect(error.httpStatus).toBe(200);
    expect(error.toEnvelope()).toEqual({ code: 10061, message: '短信发送太多频繁，请稍等' });
    expect(error.logMessage).toBe('短信发送太多频繁，请稍等');
  });

  it('never puts the log message into the envelope', () => {
    const cause = new Error('db down');
    const error = new ApiError({
      code: 10500,
      httpStatus: 500,
      userMessage: '服务器繁忙，请稍后再试',
      logMessage: 'pool exhausted',
      cause,
    });
    expect(error.cause).toBe(cause);
    expect(JSON.stringify(error.toEnvelope())).not.toContain('pool');
  });
});

describe('CLIENT_ERRORS', () => {
  it('uses negative codes that no server code can clash with', () => {
    const codes = Object.values(CLIENT_ERRORS).map((entry) => entry.code);
    expect(codes.every((code) => code < 0)).toBe(true);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe('the catalogue as a whole', () => {
  it('keeps business codes apart from the protocol failure codes', () => {
    const protocolCodes = new Set<number>(Object.values(PROTOCOL_ERRORS).map((entry) => entry.code));
    const businessCodes = [SMS_SEND_ERRORS, LOGIN_ERRORS, REGISTER_ERRORS].flatMap((table) =>
      Object.values(table).flatMap((group) => [...group.codes]),
    );
    expect(businessCodes.filter((code) => protocolCodes.has(code))).toEqual([]);
  });
});
