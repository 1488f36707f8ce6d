import { describe, expect, it, vi } from 'vitest';
import type { TUserInfo } from '@xcad/protocol';
import { createSessionStore, MEMBERSHIP_STORAGE_KEYS, membershipOfUser, USER_STORAGE_KEY } from './session-store';
import type { SessionStorage } from './session-store';

const NOW = 1_800_000_000;
const DAY = 86_400;

function mapStorage(): SessionStorage & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, value),
    removeItem: (key) => void values.delete(key),
  };
}

function user(overrides: Partial<TUserInfo> = {}): TUserInfo {
  return {
    uid: '42',
    username: '13800138000',
    nickname: '138****8000',
    head_portrait: '',
    usertoken: 'token-a',
    token: 'file-token-a',
    bindmobile: '13800138000',
    logintype: '0',
    ispwd: 1,
    ...overrides,
  };
}

function storeOn(storage: SessionStorage | null, now = NOW) {
  return createSessionStore({ storage, deviceId: () => 'device-1', now: () => now });
}

describe('session store: storage', () => {
  it('is signed out on a browser that never signed in', () => {
    const store = storeOn(mapStorage());
    expect(store.getSnapshot()).toMatchObject({ status: 'signedOut', user: null, membership: null });
  });

  it('keeps the signed-in user under xcad_user, so a reload finds them', () => {
    const storage = mapStorage();
    storeOn(storage).signIn(user({ vip: [{ productid: 211, auth_value: NOW + 30 * DAY }], nowtime: NOW }));
    expect(JSON.parse(storage.values.get(USER_STORAGE_KEY) ?? '')).toMatchObject({ uid: '42', usertoken: 'token-a' });

    const reloaded = storeOn(storage).getSnapshot();
    expect(reloaded.status).toBe('signedIn');
    expect(reloaded.user?.nickname).toBe('138****8000');
    expect(reloaded.membership?.ActivityName).toBe('高级会员');
    expect(reloaded.membership?.bianjiqi).toEqual({ isLifelong: false, expireTime: NOW + 30 * DAY });
  });

  it('stores the membership state field by field under the spec §3 names', () => {
    const storage = mapStorage();
    storeOn(storage).signIn(user({ vip: [{ productid: 202, auth_value: NOW - DAY }], nowtime: NOW }));
    expect(storage.values.get('ActivityName')).toBe('会员已过期');
    expect(storage.values.get('vipMsg')).toBe('会员已过期');
    expect(storage.values.get('vipExpiretime')).toBe(String(NOW - DAY));
    expect(storage.values.get('uuid')).toBe('device-1');
    expect(storage.values.get('version')).toBe('5.0');
    expect(JSON.parse(storage.values.get('zhuanhuanqi') ?? '')).toEqual({ isLifelong: false, expireTime: NOW - DAY });
    expect(JSON.parse(storage.values.get('tuku') ?? '')).toEqual({ isLifelong: false, expireTime: null });
  });

  it('signs out by forgetting the user and every membership field', () => {
    const storage = mapStorage();
    const store = storeOn(storage);
    store.signIn(user({ vip: [], nowtime: NOW }));
    store.clear();
    expect(store.getSnapshot().status).toBe('signedOut');
    expect([...storage.values.keys()]).toEqual([]);
  });

  it('replaces the user on update and keeps the membership when the answer has no vip list', () => {
    const store = storeOn(mapStorage());
    store.signIn(user({ vip: [{ productid: 211, auth_value: NOW + DAY }], nowtime: NOW }));
    store.update(user({ nickname: '新昵称', usertoken: 'token-b' }));
    const snapshot = store.getSnapshot();
    expect(snapshot.user).toMatchObject({ nickname: '新昵称', usertoken: 'token-b' });
    expect(snapshot.membership?.ActivityName).toBe('高级会员');
  });

  it('recomputes the membership on update when the answer has a vip list', () => {
    const store = storeOn(mapStorage());
    store.signIn(user({ vip: [{ productid: 211, auth_value: NOW + DAY }], nowtime: NOW }));
    store.update(user({ vip: [], nowtime: NOW }));
    expect(store.getSnapshot().membership?.ActivityName).toBe('普通用户');
  });

  it('does not carry one user’s membership over to another', () => {
    const store = storeOn(mapStorage());
    store.signIn(user({ vip: [{ productid: 211, auth_value: NOW + DAY }], nowtime: NOW }));
    store.update(user({ uid: '43' }));
    expect(store.getSnapshot().membership).toBeNull();
  });

  it('returns the same snapshot object until something changes (React re-renders on a new one)', () => {
    const store = storeOn(mapStorage());
    store.signIn(user());
    const first = store.getSnapshot();
    store.handleExternalChange(USER_STORAGE_KEY);
    expect(store.getSnapshot()).toBe(first);
    store.update(user({ nickname: 'x' }));
    expect(store.getSnapshot()).not.toBe(first);
  });

  it('still signs in for the page when localStorage throws', () => {
    const broken: SessionStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    const store = storeOn(broken);
    store.signIn(user());
    expect(store.getSnapshot().user?.uid).toBe('42');
    store.clear();
    expect(store.getSnapshot().status).toBe('signedOut');
  });

  it('works without any storage', () => {
    const store = storeOn(null);
    store.signIn(user());
    expect(store.getSnapshot().status).toBe('signedIn');
  });
});

describe('session store: corrupted storage', () => {
  it.each([
    ['text that is not JSON', '{"uid":'],
    ['JSON of another shape', '{"uid":"42"}'],
    ['a wrong logintype', JSON.stringify({ ...user(), logintype: '9' })],
    ['JSON null', 'null'],
  ])('reads %s as signed out', (_label, raw) => {
    const storage = mapStorage();
    storage.setItem(USER_STORAGE_KEY, raw);
    expect(storeOn(storage).getSnapshot()).toMatchObject({ status: 'signedOut', user: null });
  });

  it('keeps the user but drops a corrupted membership state', () => {
    const storage = mapStorage();
    storeOn(storage).signIn(user({ vip: [], nowtime: NOW }));
    storage.setItem('tuku', '{broken');
    const snapshot = storeOn(storage).getSnapshot();
    expect(snapshot.status).toBe('signedIn');
    expect(snapshot.membership).toBeNull();
  });

  it('drops a membership state with an unknown level', () => {
    const storage = mapStorage();
    storeOn(storage).signIn(user({ vip: [], nowtime: NOW }));
    storage.setItem('ActivityName', 'VIP');
    expect(storeOn(storage).getSnapshot().membership).toBeNull();
  });
});

describe('session store: across tabs', () => {
  it('shows a sign-in made in another tab when that tab’s storage event arrives', () => {
    const storage = mapStorage();
    const tabA = storeOn(storage);
    const tabB = storeOn(storage);
    expect(tabB.getSnapshot().status).toBe('signedOut');
    const listener = vi.fn();
    tabB.subscribe(listener);

    tabA.signIn(user({ vip: [{ productid: 297, auth_value: NOW + DAY }], nowtime: NOW }));
    tabB.handleExternalChange(USER_STORAGE_KEY);

    expect(listener).toHaveBeenCalledTimes(1);
    expect(tabB.getSnapshot().user?.uid).toBe('42');
    expect(tabB.getSnapshot().membership?.jiaocheng.expireTime).toBe(NOW + DAY);
  });

  it('shows a sign-out made in another tab, also when that tab cleared all storage', () => {
    const storage = mapStorage();
    const tabA = storeOn(storage);
    const tabB = storeOn(storage);
    tabA.signIn(user());
    tabB.handleExternalChange(USER_STORAGE_KEY);
    expect(tabB.getSnapshot().status).toBe('signedIn');

    storage.values.clear();
    tabB.handleExternalChange(null);
    expect(tabB.getSnapshot().status).toBe('signedOut');
  });

  it('ignores storage events of other keys', () => {
    const storage = mapStorage();
    const tab = storeOn(storage);
    tab.getSnapshot();
    const listener = vi.fn();
    tab.subscribe(listener);
    storage.setItem(USER_STORAGE_KEY, JSON.stringify(user()));
    tab.handleExternalChange('_g_uuid');
    expect(listener).not.toHaveBeenCalled();
    expect(tab.getSnapshot().status).toBe('signedOut');
  });

  it('stops telling a listener that unsubscribed', () => {
    const storage = mapStorage();
    const tab = storeOn(storage);
    const listener = vi.fn();
    const unsubscribe = tab.subscribe(listener);
    unsubscribe();
    tab.signIn(user());
    expect(listener).not.toHaveBeenCalled();
  });

  it('lists every membership field among the watched keys', () => {
    const storage = mapStorage();
    const tabA = storeOn(storage);
    const tabB = storeOn(storage);
    tabA.signIn(user({ vip: [], nowtime: NOW }));
    tabB.handleExternalChange(USER_STORAGE_KEY);
    const listener = vi.fn();
    tabB.subscribe(listener);
    storage.setItem('vipMsg', 'changed');
    tabB.handleExternalChange('vipMsg');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(MEMBERSHIP_STORAGE_KEYS).toContain('vipMsg');
  });
});

describe('membership of a user answer (spec §4)', () => {
  const context = { deviceId: 'device-1', clientNow: NOW };

  it('is unknown when the answer carries no vip list', () => {
    expect(membershipOfUser(user(), context)).toBeNull();
  });

  it('is 普通用户 with the membership text cleared when nothing was ever bought', () => {
    const state = membershipOfUser(user({ vip: [], nowtime: NOW }), context);
    expect(state).toMatchObject({ ActivityName: '普通用户', vipMsg: '', vipExpiretime: null });
    expect(state?.bianjiqi).toEqual({ isLifelong: false, expireTime: null });
  });

  it('is 高级会员 when any of the six products has a future expiry, and the others stay as they are', () => {
    const state = membershipOfUser(
      user({
        vip: [
          { productid: 204, auth_value: NOW + 10 * DAY },
          { productid: 203, auth_value: NOW - 10 * DAY },
        ],
        nowtime: NOW,
      }),
      context,
    );
    expect(state).toMatchObject({ ActivityName: '高级会员', vipMsg: '高级会员', vipExpiretime: NOW + 10 * DAY });
    expect(state?.gongjuxiang).toEqual({ isLifelong: false, expireTime: NOW + 10 * DAY });
    expect(state?.tuku).toEqual({ isLifelong: false, expireTime: NOW - 10 * DAY });
    expect(state?.bianjiqipro).toEqual({ isLifelong: false, expireTime: null });
  });

  it('is 会员已过期 when every bought product has lapsed', () => {
    const state = membershipOfUser(user({ vip: [{ productid: 214, auth_value: NOW - 1 }], nowtime: NOW }), context);
    expect(state?.ActivityName).toBe('会员已过期');
  });

  it('counts more than 315,360,000 s remaining as lifelong', () => {
    const state = membershipOfUser(
      user({
        vip: [
          { productid: 211, auth_value: NOW + 315_360_001 },
          { productid: 202, auth_value: NOW + 315_360_000 },
        ],
        nowtime: NOW,
      }),
      context,
    );
    expect(state?.bianjiqi.isLifelong).toBe(true);
    expect(state?.zhuanhuanqi.isLifelong).toBe(false);
  });

  it('takes the latest of several entries of one product and ignores products outside spec §6', () => {
    const state = membershipOfUser(
      user({
        vip: [
          { productid: 211, auth_value: NOW - DAY },
          { productid: 211, auth_value: NOW + DAY },
          { productid: 999, auth_value: NOW + 100 * DAY },
        ],
        nowtime: NOW,
      }),
      context,
    );
    expect(state?.bianjiqi.expireTime).toBe(NOW + DAY);
    expect(state?.vipExpiretime).toBe(NOW + DAY);
  });

  it('judges by the server time when the client clock is 60 s or more off', () => {
    const answer = user({ vip: [{ productid: 211, auth_value: NOW + 30 }], nowtime: NOW });
    // The client clock runs 2 minutes ahead: by it the membership would have lapsed.
    expect(membershipOfUser(answer, { deviceId: 'd', clientNow: NOW + 120 })?.ActivityName).toBe('高级会员');
    // 40 s ahead is ignored skew: the client clock is used, and by it the 30 s left are gone.
    expect(membershipOfUser(answer, { deviceId: 'd', clientNow: NOW + 40 })?.ActivityName).toBe('会员已过期');
  });
});

describe('session store: memberships asked with memrole (spec §4)', () => {
  it('computes the level from the six answers and the server time, keeping the user', () => {
    const store = storeOn(mapStorage());
    store.signIn(user());
    expect(store.getSnapshot().membership).toBeNull();
    store.setMembership(
      '42',
      [
        { productid: 211, auth_value: NOW + 365 * DAY },
        { productid: 203, auth_value: NOW - DAY },
      ],
      NOW,
    );
    const { user: kept, membership } = store.getSnapshot();
    expect(kept?.usertoken).toBe('token-a');
    expect(membership).toMatchObject({ ActivityName: '高级会员', vipExpiretime: NOW + 365 * DAY });
    expect(membership?.bianjiqi).toEqual({ isLifelong: false, expireTime: NOW + 365 * DAY });
    expect(membership?.tuku).toEqual({ isLifelong: false, expireTime: NOW - DAY });
  });

  it('shows 会员已过期 when every expiry has passed, and ignores answers about another user', () => {
    const store = storeOn(mapStorage());
    store.signIn(user());
    store.setMembership('42', [{ productid: 202, auth_value: NOW - DAY }], NOW);
    expect(store.getSnapshot().membership?.ActivityName).toBe('会员已过期');
    store.setMembership('7', [{ productid: 202, auth_value: NOW + DAY }], NOW);
    expect(store.getSnapshot().membership?.ActivityName).toBe('会员已过期');
  });
});
