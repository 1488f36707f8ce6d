import type { Executor, IdentityProvider, UserStatus } from '@xcad/db';

// Users, their WeChat/QQ identities and (read-only here) their memberships.

/** A user as sign-in needs one: the row plus which sign-in identities it has. */
export interface UserRecord {
  id: number;
  username: string;
  mobile: string | null;
  nickname: string;
  head_portrait: string;
  password_hash: string | null;
  status: UserStatus;
  created_at: number;
  hasWechat: boolean;
  hasQq: boolean;
}

function selectUser(db: Executor) {
  return db.selectFrom('app_user').select((eb) => {
    const hasIdentity = (provider: IdentityProvider) =>
      eb.exists(
        eb
          .selectFrom('user_identity')
          .select('user_identity.id')
          .whereRef('user_identity.user_id', '=', 'app_user.id')
          .where('user_identity.provider', '=', provider),
      );
    return [
      'app_user.id',
      'app_user.username',
      'app_user.mobile',
      'app_user.nickname',
      'app_user.head_portrait',
      'app_user.password_hash',
      'app_user.status',
      'app_user.created_at',
      hasIdentity('wechat').as('has_wechat'),
      hasIdentity('qq').as('has_qq'),
    ];
  });
}

type SelectedUser = Omit<UserRecord, 'hasWechat' | 'hasQq'> & { has_wechat: unknown; has_qq: unknown };

// EXISTS reads as true/false on PostgreSQL and 1/0 on SQLite.
function recordOf(row: SelectedUser | undefined): UserRecord | undefined {
  if (row === undefined) return undefined;
  const { has_wechat: hasWechat, has_qq: hasQq, ...user } = row;
  return { ...user, hasWechat: Boolean(Number(hasWechat)), hasQq: Boolean(Number(hasQq)) };
}

/** One lookup on the primary key (the identity flags use user_identity's user_id index). */
export async function findUserById(db: Executor, id: number): Promise<UserRecord | undefined> {
  return recordOf(await selectUser(db).where('app_user.id', '=', id).executeTakeFirst());
}

export async function findUserByMobile(db: Executor, mobile: string): Promise<UserRecord | undefined> {
  return recordOf(await selectUser(db).where('app_user.mobile', '=', mobile).executeTakeFirst());
}

/** The user an account names: an e-mail address, else a mobile number or a username. */
export async function findUserByAccount(db: Executor, account: string): Promise<UserRecord | undefined> {
  const query = account.includes('@')
    ? selectUser(db).where('app_user.email', '=', account)
    : selectUser(db).where((eb) => eb.or([eb('app_user.mobile', '=', account), eb('app_user.username', '=', account)]));
  return recordOf(await query.orderBy('app_user.id').limit(1).executeTakeFirst());
}

export interface NewUser {
  username: string;
  mobile: string | null;
  nickname: string;
  headPortrait?: string;
  passwordHash: string | null;
  now: number;
}

export async function insertUser(db: Executor, user: NewUser): Promise<number> {
  const row = await db
    .insertInto('app_user')
    .values({
      username: user.username,
      mobile: user.mobile,
      email: null,
      nickname: user.nickname,
      head_portrait: user.headPortrait ?? '',
      password_hash: user.passwordHash,
      created_at: user.now,
      updated_at: user.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function setPasswordHash(db: Executor, userId: number, passwordHash: string, now: number): Promise<void> {
  await db.updateTable('app_user').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', userId).execute();
}

/** Sets the first password; false when the user already has one. */
export async function setFirstPasswordHash(db: Executor, userId: number, passwordHash: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('app_user')
    .set({ password_hash: passwordHash, updated_at: now })
    .where('id', '=', userId)
    .where('password_hash', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function setNickname(db: Executor, userId: number, nickname: string, now: number): Promise<void> {
  await db.updateTable('app_user').set({ nickname, updated_at: now }).where('id', '=', userId).execute();
}

/** Binds `mobile` to a user without one; false when the user has one already. */
export async function setFirstMobile(db: Executor, userId: number, mobile: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('app_user')
    .set({ mobile, updated_at: now })
    .where('id', '=', userId)
    .where('mobile', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function userStatus(db: Executor, userId: number): Promise<UserStatus | undefined> {
  const row = await db.selectFrom('app_user').select('status').where('id', '=', userId).executeTakeFirst();
  return row?.status;
}

export async function usernameExists(db: Executor, username: string): Promise<boolean> {
  const row = await db.selectFrom('app_user').select('id').where('username', '=', username).executeTakeFirst();
  return row !== undefined;
}

/** spec §3 `vip[]`: the user's membership expiries, one lookup on the (user_id, product_id) key. */
export async function membershipsOf(db: Executor, userId: number): Promise<Array<{ productid: number; auth_value: number }>> {
  return db
    .selectFrom('membership')
    .select(['product_id as productid', 'auth_value'])
    .where('user_id', '=', userId)
    .orderBy('product_id')
    .execute();
}

/** The user holding the provider's openid. */
export async function userIdOfIdentity(db: Executor, provider: IdentityProvider, openid: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('user_identity')
    .select('user_id')
    .where('provider', '=', provider)
    .where('openid', '=', openid)
    .executeTakeFirst();
  return row?.user_id;
}

/** The user of another identity of `provider` sharing `unionid` (one person, several apps). */
export async function userIdOfUnionid(db: Executor, provider: IdentityProvider, unionid: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('user_identity')
    .select('user_id')
    .where('provider', '=', provider)
    .where('unionid', '=', unionid)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.user_id;
}

export interface NewIdentity {
  userId: number;
  provider: IdentityProvider;
  openid: string;
  unionid: string | null;
  now: number;
}

export async function insertIdentity(db: Executor, identity: NewIdentity): Promise<void> {
  await db
    .insertInto('user_identity')
    .values({
      user_id: identity.userId,
      provider: identity.provider,
      openid: identity.openid,
      unionid: identity.unionid,
      created_at: identity.now,
    })
    .execute();
}
