import { md5Hex } from './md5';

// spec §7: `datasign` = lowercase hex MD5 of every top-level body field except `datasign` whose
// value is not empty, sorted by key, joined `k=v` with `&`, followed directly by the product
// secret. The secret ships inside public clients: this protects against tampering and (with the
// server's timestamp window and replay store) against replays, not against a determined client.

export type SignableValue = string | number | boolean | null | undefined | object;
export type SignableFields = Record<string, SignableValue>;

/** How one body value appears in the signed string; `undefined` means the field is left out. */
export function signedValueOf(value: SignableValue): string | undefined {
  if (value === null || value === undefined) return undefined;
  // Nested values (e.g. `parainfo` sent as an object in a JSON body) are signed as their JSON text.
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text === '' ? undefined : text;
}

/** The exact string that is hashed, without the secret: `a=1&b=2`. */
export function signaturePayload(fields: SignableFields): string {
  return Object.keys(fields)
    .filter((key) => key !== 'datasign')
    .sort()
    .flatMap((key) => {
      const text = signedValueOf(fields[key]);
      return text === undefined ? [] : [`${key}=${text}`];
    })
    .join('&');
}

export function computeDatasign(fields: SignableFields, secret: string): string {
  return md5Hex(signaturePayload(fields) + secret);
}

/** Returns a copy of `fields` with its `datasign` set. */
export function signFields<T extends SignableFields>(fields: T, secret: string): T & { datasign: string } {
  return { ...fields, datasign: computeDatasign(fields, secret) };
}

/** Constant-time comparison of the body's `datasign` with the expected one. */
export function isDatasignValid(fields: SignableFields, secret: string): boolean {
  const given = fields['datasign'];
  if (typeof given !== 'string' || given.length !== 32) return false;
  const expected = computeDatasign(fields, secret);
  let diff = 0;
  const lower = given.toLowerCase();
  for (let i = 0; i < 32; i++) diff |= lower.charCodeAt(i) ^ expected.charCodeAt(i);
  return diff === 0;
}

/**
 * The signing secret of development and tests. The real one also ships in public client code
 * (FACTS.md): datasign guards against tampering, not against clients.
 */
export const DEV_SIGN_SECRET = 'xcad-dev-sign-secret-141';
