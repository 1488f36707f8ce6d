import { describe, expect, it } from 'vitest';
import {
  VALIDATION_MESSAGES,
  ZAccount,
  ZImageCode,
  ZLoginPassword,
  ZPassword,
  ZPhone,
  ZSmsCode,
  checkPasswordLoginForm,
  checkSmsLoginForm,
  checkSmsSendForm,
  maskAccount,
  maskImageCode,
  maskPassword,
  maskPhone,
  maskSmsCode,
  validateAccount,
  validateImageCode,
  validateLoginPassword,
  validatePassword,
  validatePasswordConfirmation,
  validatePhone,
  validateSmsCode,
} from './validation';
import type { z } from 'zod';

function messagesOf(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe('input masks (spec §5)', () => {
  it('strips a phone of non-digits and cuts it to 11', () => {
    expect(maskPhone('138 0013-8000')).toBe('13800138000');
    expect(maskPhone('138001380001234')).toBe('13800138000');
    expect(maskPhone('abc')).toBe('');
    expect(maskPhone('１３８')).toBe('');
  });

  it('cuts an account to 30 characters without splitting a character', () => {
    expect(maskAccount('a'.repeat(31))).toBe('a'.repeat(30));
    expect(maskAccount('user@example.com')).toBe('user@example.com');
    const emoji = '😀'.repeat(31);
    expect(Array.from(maskAccount(emoji))).toHaveLength(30);
    expect(maskAccount(emoji)).toBe('😀'.repeat(30));
  });

  it('cuts a password to 20 characters', () => {
    expect(maskPassword('abcdefghij0123456789XYZ')).toBe('abcdefghij0123456789');
    expect(maskPassword('short')).toBe('short');
  });

  it('keeps 4 digits of an SMS code', () => {
    expect(maskSmsCode('12a3 45')).toBe('1234');
    expect(maskSmsCode('98')).toBe('98');
  });

  it('keeps word characters and slashes of an image code up to the configured length', () => {
    expect(maskImageCode('a-b c/d_e')).toBe('abc/');
    expect(maskImageCode('a/b_')).toBe('a/b_');
    expect(maskImageCode('ab/c_d9')).toBe('ab/c');
    expect(maskImageCode('ab!c d9', 6)).toBe('abcd9');
    expect(maskImageCode('验证码ab')).toBe('ab');
  });
});

describe('validatePhone', () => {
  it.each(['13800138000', '19912345678', '86-13800138000', '1-15912345678', '852-17012345678'])('accepts %s', (phone) => {
    expect(validatePhone(phone)).toBe('');
  });

  it.each([
    '',
    '12800138000',
    '10800138000',
    '1380013800',
    '138001380001',
    '8613800138000',
    '1234-13800138000',
    '-13800138000',
    '1380013800a',
    '+86-13800138000',
  ])('refuses %s', (phone) => {
    expect(validatePhone(phone)).toBe('请您填写正确的11位手机号');
  });
});

describe('validateSmsCode', () => {
  it('asks for a code when empty', () => {
    expect(validateSmsCode('')).toBe('请输入验证码');
  });

  it('refuses anything but 4 digits', () => {
    for (const code of ['123', '12345', '12a4', ' 123']) expect(validateSmsCode(code)).toBe('请填写正确的验证码');
    expect(validateSmsCode('0123')).toBe('');
  });
});

describe('validateImageCode', () => {
  it('needs exactly 4 word characters or slashes', () => {
    for (const code of ['aB3_', 'a/b/', '0000']) expect(validateImageCode(code)).toBe('');
    for (const code of ['', 'abc', 'abcde', 'ab-c', 'ab c']) expect(validateImageCode(code)).toBe('请填写正确的图形验证码');
  });
});

describe('validatePassword', () => {
  it('accepts 6 to 20 letters or digits', () => {
    for (const password of ['abc123', 'ABCDEF', '123456', 'a'.repeat(20)]) expect(validatePassword(password)).toBe('');
  });

  it('refuses shorter, longer or other characters', () => {
    for (const password of ['', 'abc12', 'a'.repeat(21), 'abc 123', 'abc_123', '密码密码密码']) {
      expect(validatePassword(password)).toBe('请您填写有效的密码。格式要求: 由6-20位字母或数字组成');
    }
  });
});

describe('validatePasswordConfirmation', () => {
  it('asks for the confirmation, then compares it', () => {
    expect(validatePasswordConfirmation('abc123', '')).toBe('请确认密码');
    expect(validatePasswordConfirmation('abc123', 'abc124')).toBe('两次密码不一致');
    expect(validatePasswordConfirmation('abc123', 'ABC123')).toBe('两次密码不一致');
    expect(validatePasswordConfirmation('abc123', 'abc123')).toBe('');
  });
});

describe('validateAccount', () => {
  it('accepts a mobile number or an e-mail-shaped address', () => {
    for (const account of ['13800138000', 'user@example.com', 'a.b+c@mail.example.cn']) expect(validateAccount(account)).toBe('');
  });

  it('refuses other shapes and more than 30 characters', () => {
    const long = `${'a'.repeat(20)}@example.com`;
    expect(long.length).toBe(32);
    for (const account of ['', 'username', 'user@', 'user@example', '@example.com', 'a b@example.com', '12800138000', long]) {
      expect(validateAccount(account)).toBe(VALIDATION_MESSAGES.account);
    }
  });
});

describe('validateLoginPassword', () => {
  it('needs a password of 6 to 20 characters of any kind', () => {
    expect(validateLoginPassword('')).toBe('密码不能为空');
    expect(validateLoginPassword('12345')).toBe(VALIDATION_MESSAGES.loginPasswordLength);
    expect(validateLoginPassword('a'.repeat(21))).toBe(VALIDATION_MESSAGES.loginPasswordLength);
    expect(validateLoginPassword('p@ss w')).toBe('');
    expect(validateLoginPassword('a'.repeat(20))).toBe('');
  });
});

describe('checkSmsSendForm', () => {
  const ready = { phoneNumber: '13800138000', imageCode: '', isImageShown: false, isSending: false, secondsLeft: 0 };

  it('lets a valid phone request a code', () => {
    expect(checkSmsSendForm(ready)).toBe(0);
  });

  it('refuses in the order empty phone, wrong phone, sending, waiting, image code', () => {
    expect(checkSmsSendForm({ ...ready, phoneNumber: '', isSending: true })).toBe(5);
    expect(checkSmsSendForm({ ...ready, phoneNumber: '1380013800', isSending: true })).toBe(1);
    expect(checkSmsSendForm({ ...ready, isSending: true, secondsLeft: 30 })).toBe(2);
    expect(checkSmsSendForm({ ...ready, secondsLeft: 1 })).toBe(3);
    expect(checkSmsSendForm({ ...ready, isImageShown: true })).toBe(7);
    expect(checkSmsSendForm({ ...ready, isImageShown: true, imageCode: 'ab' })).toBe(9);
    expect(checkSmsSendForm({ ...ready, isImageShown: true, imageCode: 'ab1/' })).toBe(0);
  });
});

describe('checkSmsLoginForm', () => {
  const ready = { phoneNumber: '13800138000', smsCode: '1234', imageCode: '', isImageShown: false, hasRequestedSms: true };

  it('lets a complete form be submitted', () => {
    expect(checkSmsLoginForm(ready)).toBe(0);
    expect(checkSmsLoginForm({ ...ready, isImageShown: true, imageCode: 'x9Y_' })).toBe(0);
  });

  it('returns the spec §5 codes', () => {
    expect(checkSmsLoginForm({ ...ready, phoneNumber: '' })).toBe(5);
    expect(checkSmsLoginForm({ ...ready, phoneNumber: '23800138000' })).toBe(1);
    expect(checkSmsLoginForm({ ...ready, isImageShown: true })).toBe(7);
    expect(checkSmsLoginForm({ ...ready, isImageShown: true, imageCode: 'abc' })).toBe(9);
    expect(checkSmsLoginForm({ ...ready, hasRequestedSms: false })).toBe(11);
    expect(checkSmsLoginForm({ ...ready, smsCode: '' })).toBe(6);
    expect(checkSmsLoginForm({ ...ready, smsCode: '123' })).toBe(8);
  });
});

describe('checkPasswordLoginForm', () => {
  it('returns the spec §5 codes', () => {
    expect(checkPasswordLoginForm({ account: '', password: '' })).toBe(5);
    expect(checkPasswordLoginForm({ account: 'nobody', password: 'abc123' })).toBe(1);
    expect(checkPasswordLoginForm({ account: '13800138000', password: '' })).toBe(12);
    expect(checkPasswordLoginForm({ account: '13800138000', password: '12345' })).toBe(10);
    expect(checkPasswordLoginForm({ account: '13800138000', password: '123456' })).toBe(0);
    expect(checkPasswordLoginForm({ account: 'user@example.com', password: 'secret!' })).toBe(0);
  });
});

describe('zod schemas for the server', () => {
  it('ZPhone answers the phone message', () => {
    expect(ZPhone.parse('13800138000')).toBe('13800138000');
    expect(messagesOf(ZPhone, '12345')).toEqual(['请您填写正确的11位手机号']);
    expect(messagesOf(ZPhone, undefined)).toEqual(['请您填写正确的11位手机号']);
  });

  it('ZSmsCode tells empty from wrong, one message each', () => {
    expect(ZSmsCode.parse('4321')).toBe('4321');
    expect(messagesOf(ZSmsCode, '')).toEqual(['请输入验证码']);
    expect(messagesOf(ZSmsCode, undefined)).toEqual(['请输入验证码']);
    expect(messagesOf(ZSmsCode, '12')).toEqual(['请填写正确的验证码']);
  });

  it('ZImageCode, ZPassword and ZAccount answer their messages', () => {
    expect(messagesOf(ZImageCode, 'abcde')).toEqual(['请填写正确的图形验证码']);
    expect(ZImageCode.parse('ab/1')).toBe('ab/1');
    expect(messagesOf(ZPassword, 'abc')).toEqual(['请您填写有效的密码。格式要求: 由6-20位字母或数字组成']);
    expect(ZPassword.parse('abc123')).toBe('abc123');
    expect(messagesOf(ZAccount, 'nobody')).toEqual([VALIDATION_MESSAGES.account]);
    expect(ZAccount.parse('user@example.com')).toBe('user@example.com');
  });

  it('ZLoginPassword tells empty from too short', () => {
    expect(messagesOf(ZLoginPassword, '')).toEqual(['密码不能为空']);
    expect(messagesOf(ZLoginPassword, '123')).toEqual([VALIDATION_MESSAGES.loginPasswordLength]);
    expect(ZLoginPassword.parse('p@ss word')).toBe('p@ss word');
  });
});
