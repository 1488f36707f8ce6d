import { describe, expect, it } from 'vitest';
import {
  fileTokenOf,
  hashPassword,
  isPasswordRight,
  isSameDigest,
  newSessionToken,
  newSmsCode,
  sha256Hex,
  smsCodeDigest,
} from './credentials';
import { maskedPhone, normalizePhone } from './phone';
import { loginTypeOf } from './session.service';

describe('session tokens', () => {
  it('are 32 random bytes in base64url, different every time', () => {
    const tokens = new Set(Array.from({ length: 100 }, newSessionToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    }
  });

  it('derive a file token that differs from the usertoken and is stable for it', () => {
    const usertoken = newSessionToken();
    expect(fileTokenOf(usertoken)).toBe(fileTokenOf(usertoken));
    expect(fileTokenOf(usertoken)).not.toBe(usertoken);
    expect(fileTokenOf(usertoken)).not.toBe(fileTokenOf(newSessionToken()));
    expect(fileTokenOf(usertoken)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('are stored as SHA-256 hex, compared in constant time', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(isSameDigest(sha256Hex('a'), sha256Hex('a'))).toBe(true);
    expect(isSameDigest(sha256Hex('a'), sha256Hex('b'))).toBe(false);
    expect(isSameDigest(sha256Hex('a'), 'abcd')).toBe(false);
  });
});

describe('SMS codes', () => {
  it('are 4 digits, leading zeros kept, spread over the whole range', () => {
    const codes = Array.from({ length: 2_000 }, newSmsCode);
    for (const code of codes) expect(code).toMatch(/^\d{4}$/);
    expect(new Set(codes.map((code) => code[0])).size).toBe(10);
  });

  it('hash with their phone and purpose, so a code is good for nothing else', () => {
    const digest = smsCodeDigest('13800138000', 'quicklogin', '1234');
    expect(digest).toBe(sha256Hex('13800138000|quicklogin|1234'));
    expect(smsCodeDigest('13800138000', 'register', '1234')).not.toBe(digest);
    expect(smsCodeDigest('13800138001', 'quicklogin', '1234')).not.toBe(digest);
  });
});

describe('passwords', () => {
  it('hash with Argon2id at the library defaults, salted, and verify', async () => {
    const first = await hashPassword('abc123');
    const second = await hashPassword('abc123');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(first).not.toBe(second);
    expect(await isPasswordRight(first, 'abc123')).toBe(true);
    expect(await isPasswordRight(first, 'abc124')).toBe(false);
    expect(await isPasswordRight('not a hash', 'abc123')).toBe(false);
  });

  it('spend the same Argon2 work when there is no hash to check, and say no', async () => {
    const stored = await hashPassword('abc123');
    await isPasswordRight(null, 'warm-up');
    // Interleaved, so a burst of load on the machine slows both sides alike.
    let withHash = 0;
    let withoutHash = 0;
    for (let round = 0; round < 5; round += 1) {
      let started = performance.now();
      await isPasswordRight(stored, 'wrong1');
      withHash += performance.now() - started;
      started = performance.now();
      await isPasswordRight(null, 'wrong1');
      withoutHash += performance.now() - started;
    }
    expect(await isPasswordRight(null, 'abc123')).toBe(false);
    expect(withoutHash).toBeGreaterThan(withHash * 0.5);
  });
});

describe('phone numbers', () => {
  it("drop mainland's 86- prefix and keep others", () => {
    expect(normalizePhone('86-13800138000')).toBe('13800138000');
    expect(normalizePhone('13800138000')).toBe('13800138000');
    expect(normalizePhone('852-13800138000')).toBe('852-13800138000');
  });

  it('show as a nickname with the middle four digits hidden', () => {
    expect(maskedPhone('13800138000')).toBe('138****8000');
    expect(maskedPhone('852-13812345678')).toBe('852-138****5678');
  });
});

describe('logintype (spec §3)', () => {
  it("is '0' without WeChat/QQ, '1' with one and no mobile, '2' with both", () => {
    expect(loginTypeOf({ hasWechat: false, hasQq: false, mobile: '13800138000' })).toBe('0');
    expect(loginTypeOf({ hasWechat: true, hasQq: false, mobile: null })).toBe('1');
    expect(loginTypeOf({ hasWechat: false, hasQq: true, mobile: null })).toBe('1');
    expect(loginTypeOf({ hasWechat: true, hasQq: true, mobile: '13800138000' })).toBe('2');
  });
});
