import { MEMBERSHIP_LEVELS, PRODUCT, PRODUCTS } from '@xcad/protocol/constants';
import { buildLocalMembershipState, expiryOfVipEntries } from '@xcad/protocol/membership';
import type { ExpiriesByProduct, LocalMembershipState, ProductKey, ProductMembershipState, TUserInfo } from '@xcad/protocol';
import { readProductMembership, readStoredUser } from './stored-user';

// The signed-in user of this browser (spec §3 "User (local)") and the local membership state
// (spec §3, §4), kept in localStorage so every tab shares them. Framework-free so the rules can
// be tested without a browser; components/auth/session-provider.tsx binds it to React.

/** The user, as JSON. */
export const USER_STORAGE_KEY = 'xcad_user';

const PRODUCT_KEYS: readonly ProductKey[] = PRODUCTS.map((product) => product.key);

/** spec §3: the membership state is stored field by field, each under the name the spec gives it. */
export const MEMBERSHIP_STORAGE_KEYS = ['uuid', 'version', 'vipMsg', 'vipExpiretime', 'ActivityName', ...PRODUCT_KEYS] as const;

const STORAGE_KEYS: readonly string[] = [USER_STORAGE_KEY, ...MEMBERSHIP_STORAGE_KEYS];

export type SessionStatus = 'unknown' | 'signedOut' | 'signedIn';

export interface SessionSnapshot {
  readonly status: SessionStatus;
  readonly user: TUserInfo | null;
  readonly membership: LocalMembershipState | null;
}

/** What the server renders and the first client render shows: storage is not read yet. */
export const UNKNOWN_SESSION: SessionSnapshot = Object.freeze({ status: 'unknown', user: null, membership: null });
const SIGNED_OUT: SessionSnapshot = Object.freeze({ status: 'signedOut', user: null, membership: null });

export interface SessionStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface SessionStoreOptions {
  /** localStorage, or null where it is unavailable (the session then lasts for the page only). */
  readonly storage: SessionStorage | null;
  /** The device id (spec §3 `_g_uuid`), the membership state's `uuid`. */
  readonly deviceId: () => string;
  /** The client clock, epoch seconds. */
  readonly now: () => number;
}

export interface SessionStore {
  getSnapshot(): SessionSnapshot;
  subscribe(listener: () => void): () => void;
  /** Keeps a freshly signed-in user and computes their membership from `vip` and `nowtime`. */
  signIn(user: TUserInfo): void;
  /** Replaces the user (a new nickname, new tokens); the membership is recomputed only when `vip` came along. */
  update(user: TUserInfo): void;
  /**
   * spec §4: the membership of the six products, from the memrole answers' `vip[]` entries and
   * server time, for the user `uid` (ignored when another user has signed in meanwhile).
   */
  setMembership(uid: string, vip: NonNullable<TUserInfo['vip']>, serverNow: number): void;
  /** Forgets the user and the membership. */
  clear(): void;
  /** Another tab changed storage (the `storage` event; `null` when it cleared everything). */
  handleExternalChange(key: string | null): void;
}

/** The product ids of spec §6 mapped to the latest expiry their `vip[]` entries grant. */
export function expiriesOfVip(vip: TUserInfo['vip']): ExpiriesByProduct {
  const entries = vip ?? [];
  const expiries: ExpiriesByProduct = {};
  for (const product of PRODUCTS) {
    expiries[product.id] = expiryOfVipEntries(entries.filter((entry) => entry.productid === product.id));
  }
  return expiries;
}

/**
 * spec §3, §4: the local membership state of a user answer that carries `vip` (sent when the
 * request set `showvip`); null when it does not, so the caller keeps what it knew.
 */
export function membershipOfUser(user: TUserInfo, context: { deviceId: string; clientNow: number }): LocalMembershipState | null {
  if (!user.vip) return null;
  return buildLocalMembershipState({
    uuid: context.deviceId,
    version: PRODUCT.version,
    expiries: expiriesOfVip(user.vip),
    serverNow: user.nowtime ?? context.clientNow,
    clientNow: context.clientNow,
  });
}

function parseUser(raw: string | null): TUserInfo | null {
  if (raw === null) return null;
  try {
    return readStoredUser(JSON.parse(raw));
  } catch {
    return null;
  }
}

const LEVELS: readonly string[] = [MEMBERSHIP_LEVELS.ordinary, MEMBERSHIP_LEVELS.premium, MEMBERSHIP_LEVELS.expired];

function isLevel(value: string | null | undefined): value is LocalMembershipState['ActivityName'] {
  return value != null && LEVELS.includes(value);
}

type RawValues = Readonly<Record<string, string | null>>;

function serializeMembership(state: LocalMembershipState): Record<(typeof MEMBERSHIP_STORAGE_KEYS)[number], string> {
  const perProduct = Object.fromEntries(PRODUCT_KEYS.map((key) => [key, JSON.stringify(state[key])])) as Record<ProductKey, string>;
  return {
    uuid: state.uuid,
    version: state.version,
    vipMsg: state.vipMsg,
    vipExpiretime: state.vipExpiretime === null ? '' : String(state.vipExpiretime),
    ActivityName: state.ActivityName,
    ...perProduct,
  };
}

function parseMembership(raw: RawValues): LocalMembershipState | null {
  const { uuid, version, vipMsg, vipExpiretime, ActivityName: level } = raw;
  if (!isLevel(level) || uuid == null || version == null || vipMsg == null || vipExpiretime == null) return null;
  if (vipExpiretime !== '' && !/^\d+$/.test(vipExpiretime)) return null;
  const perProduct: Partial<Record<ProductKey, ProductMembershipState>> = {};
  for (const key of PRODUCT_KEYS) {
    try {
      const entry = readProductMembership(JSON.parse(raw[key] ?? ''));
      if (entry === null) return null;
      perProduct[key] = entry;
    } catch {
      return null;
    }
  }
  return {
    uuid,
    version,
    vipMsg,
    vipExpiretime: vipExpiretime === '' ? null : Number(vipExpiretime),
    ActivityName: level,
    ...(perProduct as Record<ProductKey, ProductMembershipState>),
  };
}

/** The storage a page falls back on when localStorage throws (blocked, private mode): this page only. */
function memoryStorage(): SessionStorage {
  const values = new Map<string, string>();
  return {
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, value),
    removeItem: (key) => void values.delete(key),
  };
}

export function createSessionStore(options: SessionStoreOptions): SessionStore {
  const fallback = memoryStorage();
  const listeners = new Set<() => void>();
  let snapshot: SessionSnapshot | null = null;
  let signature = '';

  // Every access is guarded: a storage that throws (quota, revoked permission) must not break the
  // page. A value storage refused lives on in memory; memory holds only such values, so a key
  // another tab removed is not brought back from it.
  const read = (key: string): string | null => {
    try {
      return options.storage?.getItem(key) ?? fallback.getItem(key);
    } catch {
      return fallback.getItem(key);
    }
  };
  const write = (key: string, value: string): void => {
    if (options.storage) {
      try {
        options.storage.setItem(key, value);
        fallback.removeItem(key);
        return;
      } catch {
        // Kept in memory below.
      }
    }
    fallback.setItem(key, value);
  };
  const remove = (key: string): void => {
    fallback.removeItem(key);
    try {
      options.storage?.removeItem(key);
    } catch {
      // Nothing more can be done; the memory copy is gone.
    }
  };

  /** Re-reads storage; the snapshot object changes only when the stored values did. */
  function refresh(): boolean {
    const raw: RawValues = Object.fromEntries(STORAGE_KEYS.map((key) => [key, read(key)]));
    const nextSignature = JSON.stringify(STORAGE_KEYS.map((key) => raw[key]));
    if (snapshot && nextSignature === signature) return false;
    signature = nextSignature;
    const user = parseUser(raw[USER_STORAGE_KEY] ?? null);
    // spec §3: corrupted user data reads as signed out.
    snapshot = user ? { status: 'signedIn', user, membership: parseMembership(raw) } : SIGNED_OUT;
    return true;
  }

  function notifyIfChanged(): void {
    if (!refresh()) return;
    for (const listener of [...listeners]) listener();
  }

  function storeUser(user: TUserInfo, membership: LocalMembershipState | null): void {
    // The membership first: a tab reading on the user's storage event then finds both.
    if (membership) {
      for (const [key, value] of Object.entries(serializeMembership(membership))) write(key, value);
    } else {
      for (const key of MEMBERSHIP_STORAGE_KEYS) remove(key);
    }
    write(USER_STORAGE_KEY, JSON.stringify(user));
    notifyIfChanged();
  }

  const membershipContext = () => ({ deviceId: options.deviceId(), clientNow: options.now() });

  function getSnapshot(): SessionSnapshot {
    if (!snapshot) refresh();
    return snapshot ?? SIGNED_OUT;
  }

  return {
    getSnapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    signIn(user) {
      storeUser(user, membershipOfUser(user, membershipContext()));
    },
    update(user) {
      const current = getSnapshot();
      const isSameUser = current.user?.uid === user.uid;
      const kept = isSameUser ? current.membership : null;
      storeUser(user, membershipOfUser(user, membershipContext()) ?? kept);
    },
    setMembership(uid, vip, serverNow) {
      const { user } = getSnapshot();
      if (!user || user.uid !== uid) return;
      storeUser(user, membershipOfUser({ ...user, vip, nowtime: serverNow }, membershipContext()));
    },
    clear() {
      for (const key of STORAGE_KEYS) remove(key);
      notifyIfChanged();
    },
    handleExternalChange(key) {
      if (key !== null && !STORAGE_KEYS.includes(key)) return;
      notifyIfChanged();
    },
  };
}
