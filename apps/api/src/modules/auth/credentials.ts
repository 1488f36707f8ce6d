import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// Secrets of sign-in: session tokens, SMS codes and passwords. Only hashes are stored.

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Compares two hex digests in constant time. */
export function isSameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A usertoken: 32 random bytes, base64url. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The file-service token (`userinfo.token`) of a session, derived one-way from its usertoken: it
 * reveals nothing of the usertoken, and every signed-in answer (memprofile, changenick, ...) can
 * repeat it although only its hash is stored.
 */
export function fileTokenOf(usertoken: string): string {
  return createHmac('sha256', usertoken).update('xcad file token').digest('base64url');
}

/** A 4-digit SMS code (spec §9), uniformly drawn. */
export function newSmsCode(): string {
  return String(randomInt(0, 10_000)).padStart(4, '0');
}

/** What sms_code stores: bound to the phone and purpose, so a code is good for nothing else. */
export function smsCodeDigest(phone: string, purpose: string, code: string): string {
  return sha256Hex(`${phone}|${purpose}|${code}`);
}

/** Argon2id with the library's defaults (m=19456 KiB, t=2, p=1), computed off the event loop. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks `password` against `passwordHash`. Without a hash (unknown account, or a user who never
 * set a password) a dummy hash is verified instead, so the answer takes as long either way and
 * timing does not tell which accounts exist. A damaged hash counts as a wrong password.
 */
export async function isPasswordRight(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash === null) {
    dummyHash ??= hash(randomBytes(16).toString('hex'));
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
