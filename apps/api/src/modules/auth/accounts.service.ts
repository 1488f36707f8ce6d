import { randomBytes } from 'node:crypto';
import { isUniqueViolation, type Executor, type IdentityProvider } from '@xcad/db';
import type { Accounts, AuthDeps, IdentityProfile } from './auth.contract';
import { hashPassword } from './credentials';
import { maskedPhone, normalizePhone } from './phone';
import { signInUser } from './session.service';
import { transact } from './transaction';
import {
  findUserById,
  findUserByMobile,
  insertIdentity,
  insertUser,
  setFirstPasswordHash,
  userIdOfIdentity,
  userIdOfUnionid,
  userStatus,
  usernameExists,
} from './user.repository';

// The `Accounts` the oauth module completes WeChat and QQ sign-ins through (auth.contract.ts), and
// the phone user the analytics module makes an operator of.

const USERNAME_PREFIX: Record<IdentityProvider, string> = { wechat: 'wx_', qq: 'qq_' };
const USERNAME_ATTEMPTS = 5;

async function freshUsername(deps: AuthDeps, provider: IdentityProvider): Promise<string> {
  for (let attempt = 0; attempt < USERNAME_ATTEMPTS; attempt += 1) {
    const candidate = `${USERNAME_PREFIX[provider]}${randomBytes(4).toString('hex')}`;
    if (!(await usernameExists(deps.db, candidate))) return candidate;
  }
  throw new Error(`no free ${provider} username after ${USERNAME_ATTEMPTS} attempts`);
}

async function findOrCreateUser(deps: AuthDeps, profile: IdentityProfile): Promise<number> {
  const known = await userIdOfIdentity(deps.db, profile.provider, profile.openid);
  if (known !== undefined) return known;
  const unionid = profile.unionid ?? null;
  const username = await freshUsername(deps, profile.provider);
  const now = Math.floor(deps.clock() / 1000);
  return transact(deps.db, async (trx) => {
    // One person seen through another app of the same provider shares the unionid: same user.
    const sibling = unionid === null ? undefined : await userIdOfUnionid(trx, profile.provider, unionid);
    const userId =
      sibling ??
      (await insertUser(trx, {
        username,
        mobile: null,
        nickname: profile.nickname === '' ? username : profile.nickname,
        headPortrait: profile.avatarUrl,
        passwordHash: null,
        now,
      }));
    await insertIdentity(trx, { userId, provider: profile.provider, openid: profile.openid, unionid, now });
    return userId;
  });
}

export function createAccounts(deps: AuthDeps): Accounts {
  return {
    async userOfIdentity(profile) {
      try {
        return await findOrCreateUser(deps, profile);
      } catch (error) {
        // A parallel first sign-in of the same identity (or username) won: use its user.
        if (isUniqueViolation(error)) return findOrCreateUser(deps, profile);
        throw error;
      }
    },

    async isDisabled(userId) {
      return (await userStatus(deps.db, userId)) === 'disabled';
    },

    async signIn(userId, context, showvip) {
      const now = Math.floor(deps.clock() / 1000);
      const user = await findUserById(deps.db, userId);
      if (user === undefined) throw new Error(`signIn: no user ${userId}`);
      return signInUser(deps.db, user, context, showvip, now);
    },
  };
}

export interface PhoneUser {
  userId: number;
  /** The phone as users see it, the middle four digits hidden. */
  maskedPhone: string;
  isNewUser: boolean;
  /** The given password became the user's. */
  passwordSet: boolean;
  isDisabled: boolean;
}

/**
 * A phone and an optional password given outside a sign-in (the operator command) as the accounts
 * keep them: the number as stored (spec §5: a mainland '86-' prefix dropped) and the password
 * hashed, before the caller's transaction (Argon2 takes a while and SQLite has one writer).
 */
export async function phoneAccountOf(phone: string, password: string | undefined): Promise<{ phone: string; passwordHash: string | null }> {
  return { phone: normalizePhone(phone), passwordHash: password === undefined ? null : await hashPassword(password) };
}

/**
 * The user of a normalised mobile `phone`, made the way an SMS sign-up makes one when there is
 * none. `passwordHash` (phoneAccountOf, before the caller's transaction) is set only on a user
 * without a password: an existing one is never replaced.
 */
export async function ensurePhoneUser(trx: Executor, phone: string, passwordHash: string | null, now: number): Promise<PhoneUser> {
  const existing = await findUserByMobile(trx, phone);
  if (existing === undefined) {
    const userId = await insertUser(trx, { username: phone, mobile: phone, nickname: maskedPhone(phone), passwordHash, now });
    return { userId, maskedPhone: maskedPhone(phone), isNewUser: true, passwordSet: passwordHash !== null, isDisabled: false };
  }
  const passwordSet = passwordHash !== null && (await setFirstPasswordHash(trx, existing.id, passwordHash, now));
  return {
    userId: existing.id,
    maskedPhone: maskedPhone(phone),
    isNewUser: false,
    passwordSet,
    isDisabled: existing.status === 'disabled',
  };
}
