import { describe, expect, it } from 'vitest';
import { buildLocalMembershipState } from '@xcad/protocol/membership';
import {
  avatarInitialOf,
  canBindMobile,
  displayNameOf,
  levelKeyOf,
  localMembershipRows,
  maskMobile,
  overallLevelOf,
  productMembershipRows,
  signInMethodsOf,
} from './account-view';

const NOW = 1_800_000_000;
const DAY = 86_400;

describe('maskMobile', () => {
  it.each([
    ['13800138000', '138****8000'],
    ['852-51234567', '852-512****4567'],
    ['1380', '****'],
    ['', ''],
  ])('shows %s as %s', (mobile, masked) => {
    expect(maskMobile(mobile)).toBe(masked);
  });
});

describe('avatarInitialOf', () => {
  it.each([
    ['小王', '小'],
    ['alice', 'A'],
    ['  Émile', 'É'],
  ])('shows the first letter of %s', (name, initial) => {
    expect(avatarInitialOf(name)).toBe(initial);
  });

  it.each(['137****0003', '13700000003', '_cad', ''])('shows no character for %j (a person outline instead)', (name) => {
    expect(avatarInitialOf(name)).toBeNull();
  });
});

describe('displayNameOf', () => {
  it('prefers the nickname and falls back on the username when it is blank', () => {
    expect(displayNameOf({ nickname: '小王', username: '13800138000' })).toBe('小王');
    expect(displayNameOf({ nickname: '  ', username: 'wx_1a2b3c4d' })).toBe('wx_1a2b3c4d');
  });
});

describe('levelKeyOf', () => {
  it('maps the three spec levels to their message keys', () => {
    expect(levelKeyOf('普通用户')).toBe('ordinary');
    expect(levelKeyOf('高级会员')).toBe('premium');
    expect(levelKeyOf('会员已过期')).toBe('expired');
  });
});

describe('productMembershipRows (spec §4, §6)', () => {
  const rows = productMembershipRows(
    {
      nowtime: NOW,
      vip: [
        { productid: 211, auth_value: NOW + 30 * DAY },
        { productid: 202, auth_value: NOW - DAY },
        { productid: 297, auth_value: NOW + 315_360_001 },
        { productid: 297, auth_value: NOW + DAY },
      ],
    },
    NOW,
  );
  const row = (key: string) => rows.find((candidate) => candidate.key === key);

  it('lists the six products in the order of spec §6', () => {
    expect(rows.map((candidate) => candidate.productId)).toEqual([211, 214, 202, 297, 204, 203]);
  });

  it('shows a future expiry as premium with its date, a past one as expired, none as ordinary', () => {
    expect(row('bianjiqi')).toMatchObject({ level: 'premium', isLifelong: false, expireTime: NOW + 30 * DAY });
    expect(row('zhuanhuanqi')).toMatchObject({ level: 'expired', expireTime: NOW - DAY });
    expect(row('tuku')).toMatchObject({ level: 'ordinary', expireTime: null });
  });

  it('shows more than 315,360,000 s remaining as lifelong, whatever shorter entries say', () => {
    expect(row('jiaocheng')).toMatchObject({ level: 'premium', isLifelong: true });
  });

  it('links each product to its buy page', () => {
    expect(row('bianjiqi')?.buyPath).toBe('/buy/cadeditor.html');
    expect(row('gongjuxiang')?.buyPath).toBe('/buy/cadholdall.html');
  });

  it('judges by the server time when the client clock is far off', () => {
    const judged = productMembershipRows({ nowtime: NOW, vip: [{ productid: 211, auth_value: NOW + 30 }] }, NOW + 3_600);
    expect(judged[0]?.level).toBe('premium');
  });

  it('is ordinary everywhere for an answer without a vip list', () => {
    const none = productMembershipRows({}, NOW);
    expect(none.every((candidate) => candidate.level === 'ordinary')).toBe(true);
    expect(overallLevelOf(none)).toBe('ordinary');
  });

  it('makes the account premium when any product is, else expired when any lapsed', () => {
    expect(overallLevelOf(rows)).toBe('premium');
    expect(overallLevelOf(productMembershipRows({ nowtime: NOW, vip: [{ productid: 203, auth_value: NOW - 1 }] }, NOW))).toBe('expired');
  });
});

describe('localMembershipRows (the header drop-down)', () => {
  const state = buildLocalMembershipState({
    uuid: 'device',
    version: '5.0',
    expiries: { 211: NOW + 20 * 365 * DAY, 202: NOW + 10 * DAY, 203: NOW - DAY },
    serverNow: NOW,
    clientNow: NOW,
  });

  it('shows each product: lifelong, member until a date, lapsed, never bought', () => {
    const rows = localMembershipRows(state, NOW);
    const byKey = Object.fromEntries(rows.map((row) => [row.key, row]));
    expect(byKey['bianjiqi']).toMatchObject({ level: 'premium', isLifelong: true });
    expect(byKey['zhuanhuanqi']).toMatchObject({ level: 'premium', isLifelong: false, expireTime: NOW + 10 * DAY });
    expect(byKey['tuku']).toMatchObject({ level: 'expired', expireTime: NOW - DAY });
    expect(byKey['gongjuxiang']).toMatchObject({ level: 'ordinary', expireTime: null });
  });

  it('judges the stored expiries at the time asked: a membership that ran out since has lapsed', () => {
    const later = localMembershipRows(state, NOW + 11 * DAY);
    expect(later.find((row) => row.key === 'zhuanhuanqi')?.level).toBe('expired');
  });
});

describe('signInMethodsOf', () => {
  it('lists the phone for phone accounts and for WeChat/QQ accounts with a bound mobile', () => {
    expect(signInMethodsOf({ logintype: '0', bindmobile: '13800138000' })).toEqual(['phone']);
    expect(signInMethodsOf({ logintype: '2', bindmobile: '13800138000', bindwechat: true })).toEqual(['phone', 'wechat']);
  });

  it('lists only the provider for a WeChat/QQ account without a mobile', () => {
    expect(signInMethodsOf({ logintype: '1', bindmobile: '', bindqq: true })).toEqual(['qq']);
  });
});

describe('canBindMobile', () => {
  it('lets only unbound WeChat/QQ accounts (logintype 1) bind a mobile', () => {
    expect(canBindMobile({ logintype: '1' })).toBe(true);
    expect(canBindMobile({ logintype: '0' })).toBe(false);
    expect(canBindMobile({ logintype: '2' })).toBe(false);
  });
});
