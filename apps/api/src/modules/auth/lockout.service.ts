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

/** Password checks under way (rows deleted when the check ends). */
const ATTEMPT = {
  password: 'login-attempt',
  passwordFromIp: 'login-attempt-ip',
} as const;

/** A check still marked under way after this long belongs to a process that died; it stops counting. */
const ATTEMPT_STALE_SECONDS = 60;

function busyError(): ApiError {
  return ApiError.business(AUTH_ERRORS.attemptsInFlight, 'too many password checks in flight', { retryafter: 1 });
}

/**
 * Runs a password check under the lock-out rules. Failures so far plus the checks under way may
 * not exceed the limits, so parallel guesses cannot slip past the count (a further attempt while
 * they run answers 10064 "retry in a second"); only real failures lock, so a burst of right
 * passwords never does. Answers whether the password was right; throws 10062 when the account or
 * the address is locked, or when this failure locks it.
 */
export async function checkPasswordGuarded(db: Kysely<Database>, check: PasswordCheck): Promise<boolean> {
  const { subject, ip, now } = check;
  const ipSubject = lockOf.passwordsFromIp(ip);
  const since = now - AUTH_LIMITS.failureWindowSeconds;
  const freshSince = now - ATTEMPT_STALE_SECONDS;
  const attemptIds = await transact(db, async (trx) => {
    await serializeOn(trx, [subject, ipSubject]);
    await assertNotLocked(trx, subject, now);
    await assertNotLocked(trx, ipSubject, now);
    const [failures, ipFailures, inFlight, ipInFlight] = await Promise.all([
      countEvents(trx, FAILURE.password, subject, since),
      countEvents(trx, FAILURE.passwordFromIp, ip, since),
      countEvents(trx, ATTEMPT.password, subject, freshSince),
      countEvents(trx, ATTEMPT.passwordFromIp, ip, freshSince),
    ]);
    if (failures + inFlight >= AUTH_LIMITS.failuresBeforeLock) throw busyError();
    if (ipFailures + ipInFlight >= PASSWORD_FAILURES_PER_IP_BEFORE_LOCK) throw busyError();
    return recordAuthEvents(
      trx,
      [
        { kind: ATTEMPT.password, subject },
        { kind: ATTEMPT.passwordFromIp, subject: ip },
      ],
      now,
    );
  });

  let isRight: boolean;
  try {
    isRight = await check.isRight();
  } catch (error) {
    await deleteEventsById(db, attemptIds);
    throw error;
  }
  if (isRight) {
    await transact(db, async (trx) => {
      await deleteEventsById(trx, attemptIds);
      await deleteEvents(trx, FAILURE.password, subject);
    });
    return true;
  }

  const locked = await transact(db, async (trx) => {
    await serializeOn(trx, [subject, ipSubject]);
    await deleteEventsById(trx, attemptIds);
    await recordAuthEvents(
      trx,
      [
        { kind: FAILURE.password, subject },
        { kind: FAILURE.passwordFromIp, subject: ip },
      ],
      now,
    );
    const [failures, ipFailures] = await Promise.all([
      countEvents(trx, FAILURE.password, subject, since),
      countEvents(trx, FAILURE.passwordFromIp, ip, since),
    ]);
    const until = now + AUTH_LIMITS.lockSeconds;
    if (ipFailures >= PASSWORD_FAILURES_PER_IP_BEFORE_LOCK) await lockSubject(trx, ipSubject, until);
    if (failures < AUTH_LIMITS.failuresBeforeLock) return undefined;
    await lockSubject(trx, subject, until);
    return lockedError(until, now);
  });
  if (locked !== undefined) throw locked;
  return false;
}
