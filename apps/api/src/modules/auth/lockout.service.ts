import { ApiError, AUTH_ERRORS, AUTH_LIMITS } from '@xcad/protocol';
import { limitKey, UNLIMITED, type Charge, type LimitStore } from '../../limits';

// Lock-out after repeated wrong passwords or codes (decision 0010), counted in the limit store so every
// API process sees the same counts (decision 0029): failures are counted per subject over
// AUTH_LIMITS.failureWindowSeconds; the failuresBeforeLock-th locks the subject for lockSeconds,
// during which even the right answer is refused with 10062. Times here are epoch seconds.

/**
 * Wrong passwords from one address across accounts before it is locked out of password checks:
 * credential stuffing tries few passwords on many accounts, which the per-account count misses.
 * Ours, set well above what one office behind a shared address mistypes in 15 minutes.
 */
const PASSWORD_FAILURES_PER_IP_BEFORE_LOCK = 4 * AUTH_LIMITS.failuresBeforeLock;

/** Lock subjects. */
export const lockOf = {
  phone: (phone: string) => limitKey('phone', phone),
  user: (userId: number) => limitKey('user', userId),
  /** An account no user has: locked like a real one, so the lock does not tell which exist. */
  unknownAccount: (account: string) => limitKey('account', account),
  passwordsFromIp: (ip: string) => limitKey('login-ip', ip),
};

const FAILURE_WINDOW_MS = AUTH_LIMITS.failureWindowSeconds * 1000;
const LOCK_MS = AUTH_LIMITS.lockSeconds * 1000;

/** The counter of a subject's lock: it holds a unit while the subject is locked. */
const lockKey = (subject: string) => limitKey('auth-lock', subject);

/** A check that refuses while `subject` is locked, and takes nothing. */
function notLocked(subject: string): Charge {
  return { key: lockKey(subject), cost: 0, limit: 0, windowMs: LOCK_MS };
}

function lockedError(retryAfterSeconds: number): ApiError {
  return ApiError.business(AUTH_ERRORS.locked, 'subject locked', { retryafter: Math.max(1, retryAfterSeconds) });
}

function lockedFor(retryAfterMs: number): ApiError {
  return lockedError(Math.ceil(retryAfterMs / 1000));
}

/** Refuses with 10062 while `subject` is locked. */
export async function assertNotLocked(limits: LimitStore, subject: string, now: number): Promise<void> {
  const checked = await limits.consume([notLocked(subject)], now * 1000);
  if (!checked.ok) throw lockedFor(checked.retryAfterMs);
}

/** Locks `subject` for AUTH_LIMITS.lockSeconds (a subject already locked stays as it is). */
async function lock(limits: LimitStore, subject: string, now: number): Promise<void> {
  await limits.consume([{ key: lockKey(subject), cost: 1, limit: 1, windowMs: LOCK_MS }], now * 1000);
}

/** Counters of wrong answers; a right answer resets the subject's. */
export const FAILURE = {
  smsCode: (phone: string) => limitKey('sms-code-fail', phone),
} as const;

/**
 * Counts one failure against `failureKey` and locks `subject` when the window holds enough of
 * them. Answers the lock's error when this failure locked, else undefined.
 */
export async function countFailure(limits: LimitStore, failureKey: string, subject: string, now: number): Promise<ApiError | undefined> {
  const counted = await limits.consume([{ key: failureKey, cost: 1, limit: UNLIMITED, windowMs: FAILURE_WINDOW_MS }], now * 1000);
  const failures = counted.ok ? (counted.counts[0] ?? 0) : 0;
  if (failures < AUTH_LIMITS.failuresBeforeLock) return undefined;
  await lock(limits, subject, now);
  return lockedError(AUTH_LIMITS.lockSeconds);
}

export interface PasswordCheck {
  /** The lock subject of the account (lockOf.user or lockOf.unknownAccount). */
  subject: string;
  ip: string;
  now: number;
  /** The slow part: the Argon2 verification. */
  isRight: () => Promise<boolean>;
}

function busyError(): ApiError {
  return ApiError.business(AUTH_ERRORS.attemptsInFlight, 'too many password checks in flight', { retryafter: 1 });
}

/**
 * Runs a password check under the lock-out rules. One counter per account and one per address
 * hold the failures so far plus the checks under way: a check takes a unit before it starts, so
 * parallel guesses cannot slip past the limit (a further attempt while they run answers 10064
 * "retry in a second"). A right password gives its unit back (and clears the account's
 * failures), a wrong one leaves it as a failure, so only real failures lock and a burst of right
 * passwords never does. Answers whether the password was right; throws 10062 when the account or
 * the address is locked, or when this failure locks it.
 */
export async function checkPasswordGuarded(limits: LimitStore, check: PasswordCheck): Promise<boolean> {
  const { subject, ip, now } = check;
  const ipSubject = lockOf.passwordsFromIp(ip);
  const attempts: Charge[] = [
    { key: limitKey('password', subject), cost: 1, limit: AUTH_LIMITS.failuresBeforeLock, windowMs: FAILURE_WINDOW_MS },
    { key: limitKey('password', ipSubject), cost: 1, limit: PASSWORD_FAILURES_PER_IP_BEFORE_LOCK, windowMs: FAILURE_WINDOW_MS },
  ];
  const started = await limits.consume([notLocked(subject), notLocked(ipSubject), ...attempts], now * 1000);
  if (!started.ok)
    throw started.key === lockKey(subject) || started.key === lockKey(ipSubject) ? lockedFor(started.retryAfterMs) : busyError();

  let isRight: boolean;
  try {
    isRight = await check.isRight();
  } catch (error) {
    await limits.refund(attempts, now * 1000);
    throw error;
  }
  const [account, address] = attempts as [Charge, Charge];
  if (isRight) {
    await limits.refund([address], now * 1000);
    await limits.reset([account.key]);
    return true;
  }

  const [accountCount, addressCount] = await limits.read([account.key, address.key], now * 1000);
  if ((addressCount?.count ?? 0) >= PASSWORD_FAILURES_PER_IP_BEFORE_LOCK) await lock(limits, ipSubject, now);
  if ((accountCount?.count ?? 0) < AUTH_LIMITS.failuresBeforeLock) return false;
  await lock(limits, subject, now);
  throw lockedError(AUTH_LIMITS.lockSeconds);
}
