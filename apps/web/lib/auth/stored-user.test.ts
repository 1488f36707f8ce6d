import { describe, expect, it } from 'vitest';
import { ZUserInfo } from '@xcad/protocol';
import { readProductMembership, readStoredUser } from './stored-user';

// The hand-written reader must give the answers of the protocol's schema (ZUserInfo): the same
// users accepted with the same values, the same damage refused.

const USER = {
  uid: '10001',
  username: 'u13700000003',
  nickname: '张工',
  head_portrait: '',
  usertoken: 'a'.repeat(32),
  token: 'b'.repeat(32),
  bindmobile: '13700000003',
  logintype: '1',
  ispwd: 1,
};

const CASES: Record<string, unknown> = {
  'a plain user': USER,
  'a user with vip[] and nowtime': { ...USER, vip: [{ productid: 211, auth_value: 1_900_000_000 }], nowtime: 1_800_000_000 },
  'vip[] numbers as text': { ...USER, vip: [{ productid: '211', auth_value: '1900000000', name: '编辑器' }] },
  'extra fields kept': { ...USER, email: 'me@example.com' },
  'ispwd 0 after an SMS sign-up': { ...USER, ispwd: 0 },
  'no usertoken': { ...USER, usertoken: undefined },
  'a number as nickname': { ...USER, nickname: 12 },
  'an unknown logintype': { ...USER, logintype: '7' },
  'ispwd as text': { ...USER, ispwd: '1' },
  'vip not a list': { ...USER, vip: { productid: 211 } },
  'a vip entry without expiry': { ...USER, vip: [{ productid: 211 }] },
  'a vip entry with a fraction as text': { ...USER, vip: [{ productid: 211, auth_value: '1.5' }] },
  'nowtime with a fraction': { ...USER, nowtime: 1.5 },
  'nowtime as text': { ...USER, nowtime: '1800000000' },
  'a list': [USER],
  null: null,
  text: 'user',
};

describe('readStoredUser', () => {
  for (const [name, value] of Object.entries(CASES)) {
    it(`answers as ZUserInfo does: ${name}`, () => {
      const parsed = ZUserInfo.safeParse(value);
      expect(readStoredUser(value)).toEqual(parsed.success ? parsed.data : null);
    });
  }

  it('reads back what the session stores (JSON of a parsed user)', () => {
    const stored = JSON.parse(JSON.stringify(ZUserInfo.parse(CASES['vip[] numbers as text'])));
    expect(readStoredUser(stored)?.vip).toEqual([{ productid: 211, auth_value: 1_900_000_000, name: '编辑器' }]);
  });
});

describe('readProductMembership', () => {
  it('reads {isLifelong, expireTime} and refuses anything else', () => {
    expect(readProductMembership({ isLifelong: true, expireTime: null })).toEqual({ isLifelong: true, expireTime: null });
    expect(readProductMembership({ isLifelong: false, expireTime: 1_900_000_000 })).toEqual({
      isLifelong: false,
      expireTime: 1_900_000_000,
    });
    expect(readProductMembership({ isLifelong: 'no', expireTime: null })).toBeNull();
    expect(readProductMembership({ isLifelong: false, expireTime: '1900000000' })).toBeNull();
    expect(readProductMembership({ isLifelong: false })).toBeNull();
    expect(readProductMembership(null)).toBeNull();
  });
});
