import { describe, expect, it } from 'vitest';
import {
  buildLocalMembershipState,
  effectiveNow,
  expiryOfVipEntries,
  isLifelong,
  membershipLevelOf,
  productMembership,
  vipMsgOf,
} from './membership';

const NOW = 1_763_700_000;
const DAY = 86_400;
const TEN_YEARS = 315_360_000;

describe('isLifelong (spec §4)', () => {
  it('needs more than 315,360,000 s remaining', () => {
    expect(isLifelong(NOW + TEN_YEARS + 1, NOW)).toBe(true);
    expect(isLifelong(NOW + TEN_YEARS, NOW)).toBe(false);
    expect(isLifelong(NOW + 365 * DAY, NOW)).toBe(false);
    expect(isLifelong(NOW - DAY, NOW)).toBe(false);
  });
});

describe('productMembership', () => {
  it('is a member while the expiry is in the future', () => {
    expect(productMembership(NOW + 1, NOW)).toEqual({ status: 'member', isLifelong: false, expireTime: NOW + 1 });
    expect(productMembership(NOW + TEN_YEARS + 1, NOW)).toEqual({ status: 'member', isLifelong: true, expireTime: NOW + TEN_YEARS + 1 });
  });

  it('has lapsed at or after the expiry', () => {
    expect(productMembership(NOW, NOW)).toEqual({ status: 'lapsed', isLifelong: false, expireTime: NOW });
    expect(productMembership(NOW - 30 * DAY, NOW).status).toBe('lapsed');
  });

  it('was never a member without an expiry (absent or the vendor 0)', () => {
    expect(productMembership(undefined, NOW)).toEqual({ status: 'none', isLifelong: false, expireTime: null });
    expect(productMembership(0, NOW).status).toBe('none');
    expect(productMembership(Number.NaN, NOW).status).toBe('none');
  });
});

describe('membershipLevelOf (spec §4)', () => {
  it('is 普通用户 when no product was ever bought', () => {
    expect(membershipLevelOf({}, NOW)).toBe('普通用户');
    expect(membershipLevelOf({ 211: undefined, 214: 0, 202: undefined, 297: undefined, 204: undefined, 203: undefined }, NOW)).toBe(
      '普通用户',
    );
  });

  it('is 会员已过期 when expiries lapsed and none is in the future', () => {
    expect(membershipLevelOf({ 211: NOW - DAY, 202: undefined }, NOW)).toBe('会员已过期');
    expect(membershipLevelOf({ 211: NOW }, NOW)).toBe('会员已过期');
  });

  it('is 高级会员 when any product has a future expiry', () => {
    expect(membershipLevelOf({ 211: NOW - DAY, 203: NOW + DAY }, NOW)).toBe('高级会员');
    expect(membershipLevelOf({ 297: NOW + 1 }, NOW)).toBe('高级会员');
  });

  it('clears the membership text only for 普通用户', () => {
    expect(vipMsgOf('普通用户')).toBe('');
    expect(vipMsgOf('高级会员')).toBe('高级会员');
    expect(vipMsgOf('会员已过期')).toBe('会员已过期');
  });
});

describe('effectiveNow (spec §4: clock skew under 60 s is ignored)', () => {
  it('keeps the client clock within 59 s either way', () => {
    expect(effectiveNow(NOW, NOW + 59)).toBe(NOW + 59);
    expect(effectiveNow(NOW, NOW - 59)).toBe(NOW - 59);
    expect(effectiveNow(NOW, NOW)).toBe(NOW);
  });

  it('takes the server clock from 60 s apart', () => {
    expect(effectiveNow(NOW, NOW + 60)).toBe(NOW);
    expect(effectiveNow(NOW, NOW - 60)).toBe(NOW);
    expect(effectiveNow(NOW, NOW - 3 * DAY)).toBe(NOW);
  });

  it('decides a membership expiring between the two clocks by the right clock', () => {
    const expiry = NOW + 30;
    expect(productMembership(expiry, effectiveNow(NOW, NOW + 59)).status).toBe('lapsed');
    expect(productMembership(expiry, effectiveNow(NOW, NOW + 60)).status).toBe('member');
  });
});

describe('expiryOfVipEntries', () => {
  it('takes the latest auth_value, numbers or numeric strings', () => {
    expect(expiryOfVipEntries([{ auth_value: NOW + DAY }, { auth_value: String(NOW + 2 * DAY) }])).toBe(NOW + 2 * DAY);
  });

  it('has none for no entries or only zeros', () => {
    expect(expiryOfVipEntries([])).toBeUndefined();
    expect(expiryOfVipEntries([{ auth_value: 0 }, { auth_value: '' }])).toBeUndefined();
  });
});

describe('buildLocalMembershipState (spec §3)', () => {
  const base = { uuid: 'device-1', version: '5.0', serverNow: NOW, clientNow: NOW };

  it('builds an ordinary user with the text cleared', () => {
    const state = buildLocalMembershipState({ ...base, expiries: {} });
    expect(state).toEqual({
      uuid: 'device-1',
      version: '5.0',
      vipMsg: '',
      vipExpiretime: null,
      ActivityName: '普通用户',
      bianjiqi: { isLifelong: false, expireTime: null },
      bianjiqipro: { isLifelong: false, expireTime: null },
      zhuanhuanqi: { isLifelong: false, expireTime: null },
      jiaocheng: { isLifelong: false, expireTime: null },
      gongjuxiang: { isLifelong: false, expireTime: null },
      tuku: { isLifelong: false, expireTime: null },
    });
  });

  it('builds a premium member from mixed products, with the latest future expiry', () => {
    const lifelong = NOW + TEN_YEARS + DAY;
    const state = buildLocalMembershipState({
      ...base,
      expiries: { 211: NOW - DAY, 202: NOW + 30 * DAY, 203: lifelong, 204: undefined },
    });
    expect(state.ActivityName).toBe('高级会员');
    expect(state.vipMsg).toBe('高级会员');
    expect(state.vipExpiretime).toBe(lifelong);
    expect(state.bianjiqi).toEqual({ isLifelong: false, expireTime: NOW - DAY });
    expect(state.zhuanhuanqi).toEqual({ isLifelong: false, expireTime: NOW + 30 * DAY });
    expect(state.tuku).toEqual({ isLifelong: true, expireTime: lifelong });
    expect(state.gongjuxiang).toEqual({ isLifelong: false, expireTime: null });
  });

  it('builds a lapsed member with the latest lapsed expiry', () => {
    const state = buildLocalMembershipState({ ...base, expiries: { 211: NOW - 10 * DAY, 214: NOW - DAY } });
    expect(state.ActivityName).toBe('会员已过期');
    expect(state.vipMsg).toBe('会员已过期');
    expect(state.vipExpiretime).toBe(NOW - DAY);
    expect(state.bianjiqipro).toEqual({ isLifelong: false, expireTime: NOW - DAY });
  });

  it('judges by the server clock when the client clock is 60 s or more off', () => {
    const expiries = { 211: NOW + 30 };
    expect(buildLocalMembershipState({ ...base, clientNow: NOW + 120, expiries }).ActivityName).toBe('高级会员');
    expect(buildLocalMembershipState({ ...base, clientNow: NOW + 59, expiries }).ActivityName).toBe('会员已过期');
  });

  it('counts exactly 315,360,000 s remaining as not lifelong', () => {
    const state = buildLocalMembershipState({ ...base, expiries: { 297: NOW + TEN_YEARS, 204: NOW + TEN_YEARS + 1 } });
    expect(state.jiaocheng.isLifelong).toBe(false);
    expect(state.gongjuxiang.isLifelong).toBe(true);
  });
});
