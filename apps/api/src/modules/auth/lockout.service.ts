import type { Kysely } from 'kysely';
import type { Database, Executor } from '@xcad/db';
import { ApiError, AUTH_ERRORS, AUTH_LIMITS } from '@xcad/protocol';
import { countEvents, deleteEvents, deleteEventsById, recordAuthEvents } from './auth-event.repository';
import { lockedUntil, lockSubject, serializeOn } from './auth-lock.repository';
import { transact } from './transaction';

// Lock-out after repeated wrong passwords or codes (issue 3): failures are counted per subject
// over AUTH_LIMITS.failureWindowSeconds; the failuresBeforeLock-th locks the subject for
// lockSeconds, during which even the right answer is refused with 10062.

/** Event kinds of counted failures. */
export const FAILURE = {
  password: 'login-fail',
  passwordFromIp: 'login-fail-ip',
  smsCode: 'sms-code-fail',
} as const;

/**
 * Wrong passwords from one address across accounts before it is locked out of password checks:
 * credential stuffing tries few passwords on many accounts, which the per-account count misses.
 * Ours, set well above what one office behind a shared address mistypes in 15 minutes.
 */
export const PASSWORD_FAILURES_PER_IP_BEFORE_LOCK = 4 * AUTH_LIMITS.failuresBeforeLock;

/** Lock subjects. */
export const lockOf = {
  phone: (phone: string) => `phone:${phone}`,
  user: (userId: number) => `user:${userId}`,
  /** An account no user has: locked like a real one, so the lock does not tell which exist. */
  unknownAccount: (account: string) => `account:${account}`,
  passwordsFromIp: (ip: string) => `login-ip:${ip}`,
};

export function lockedError(until: number, now: number): ApiError {
  return ApiError.business(AUTH_ERRORS.locked, 'subject locked', { retryafter: Math.max(1, until - now) });
}

/** Refuses with 10062 while `subject` is locked. */
export async function assertNotLocked(db: Executor, subject: string, now: number): Promise<void> {
  const until = await lockedUntil(db, subject, now);
  if (until !== undefined) throw lockedError(until, now);
}

/**
 * Counts one failure of `kind` for `subject` and locks `lockSubjectName` when the window holds
 * enough of them. Answers the lock's error when this failure locked, else undefined.
 */
export async function countFailure(db: Executor, kind: string, subject: string, lockSubjectName: string, now: number): Promise<ApiError | undefined> {
  await recordAuthEvents(db, [{ kind, subject }], now);
  const failures = await countEvents(db, kind, subject, now - AUTH_LIMITS.failureWindowSeconds);
  if (failures < AUTH_LIMITS.failuresBeforeLock) return undefined;
  const until = now + AUTH_LIMITS.lockSeconds;
  await lockSubject(db, lockSubjectName, until);
  return lockedError(until, now);
}

export interface PasswordCheck {
  /** The lock subject of the account (lockOf.user or lockOf.unknownAccount). */
  subject: string;
  ip: string;
  now: number;
  /** The slow part: the Argon2 verification. */
  isRight: () => Promise<boolean>;
}

/**
 * Runs a password check under the lock-out rules. The attempt is counted as a failure before the
 * (slow) verification and forgiven when it succeeds, so parallel guesses cannot all slip in before
 * the first of them is counted. Answers whether the password was right; throws 10062 when the
 * account or the address is locked, or when this failure locks it.
 */
export async function checkPasswordGuarded(db: Kysely<Database>, check: PasswordCheck): Promise<boolean> {
  const { subject, ip, now } = check;
  const ipSubject = lockOf.passwordsFromIp(ip);
  const since = now - AUTH_LIMITS.failureWindowSeconds;
  const pending = await transact(db, async (trx) => {
    await serializeOn(trx, [subject, ipSubject]);
    await assertNotLocked(trx, subject, now);
    await assertNotLocked(trx, ipSubject, now);
    const failures = await countEvents(trx, FAILURE.password, subject, since);
    const ipFailures = await countEvents(trx, FAILURE.passwordFromIp, ip, since);
    // Reached only by attempts that were in flight when the lock was set.
    if (failures >= AUTH_LIMITS.failuresBeforeLock) throw lockedError(now + AUTH_LIMITS.lockSeconds, now);
    if (ipFailures >= PASSWORD_FAILURES_PER_IP_BEFORE_LOCK) throw lockedError(now + AUTH_LIMITS.lockSeconds, now);
    const ids = await recordAuthEvents(
      trx,
      [
        { kind: FAILURE.password, subject },
        { kind: FAILURE.passwordFromIp, subject: ip },
      ],
      now,
    );
    return { failures: failures + 1, ipFailures: ipFailures + 1, ids };
  });

  if (await check.isRight()) {
    await transact(db, async (trx) => {
      await deleteEvents(trx, FAILURE.password, subject);
      await deleteEventsById(trx, pending.ids);
    });
    return true;
  }
  const until = now + AUTH_LIMITS.lockSeconds;
  if (pending.ipFailures >= PASSWORD_FAILURES_PER_IP_BEFORE_LOCK) await lockSubject(db, ipSubject, until);
  if (pending.failures >= AUTH_LIMITS.failuresBeforeLock) {
    await lockSubject(db, subject, until);
    throw lockedError(until, now);
  }
  return false;
}
