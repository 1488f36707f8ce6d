import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';

// The payment keys come from the environment in the shapes people actually have at hand: the PEM
// file WeChat Pay's certificate tool writes (or its path), PEM pasted into a one-line variable
// with `\n` escapes, or the bare base64 Alipay's key tool prints. Everything is checked once at
// start-up, so a wrong key stops the server instead of failing the first payment.

export type PemKind = 'private' | 'public';

const PEM_LABEL: Record<PemKind, string> = { private: 'PRIVATE KEY', public: 'PUBLIC KEY' };

// Base64 of DER, possibly wrapped over lines; nothing else a path or a typo would contain.
const BARE_BASE64 = /^[A-Za-z0-9+/\s]+={0,2}$/;
// An RSA key's DER in base64 is hundreds of characters; anything shorter is more likely a
// mistyped path (`/etc/keys/alipay` is valid base64 too) and is reported as such.
const MIN_KEY_BASE64 = 200;

/** A one-line variable holding PEM carries its line breaks as the two characters `\n`. */
function unescapeNewlines(value: string): string {
  return value.replace(/\\r\\n|\\n/g, '\n');
}

/** Bare base64 DER under a PEM `label`. */
export function wrapBase64(base64: string, label: string): string {
  const lines = base64.replace(/\s+/g, '').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The PEM texts `text` may stand for, best guess first, or undefined when it is no key at all.
 * Bare base64 is PKCS#8 / SPKI as Alipay's key tool prints it for Java; its "PKCS1" setting
 * prints the older RSA form, tried second.
 */
function pemCandidates(text: string, kind: PemKind): string[] | undefined {
  if (text.includes('-----BEGIN ')) return [text];
  if (text.replace(/\s+/g, '').length < MIN_KEY_BASE64 || !BARE_BASE64.test(text)) return undefined;
  return [wrapBase64(text, PEM_LABEL[kind]), wrapBase64(text, `RSA ${PEM_LABEL[kind]}`)];
}

/** `value` as PEM candidates: a file's content when `value` names a file, else the text itself. */
function candidatesOf(value: string, kind: PemKind): string[] {
  const trimmed = value.trim();
  // A path is looked up as given: unescaping first would spoil a Windows path such as C:\new\key.pem.
  if (!trimmed.includes('-----BEGIN ') && !trimmed.includes('\n') && isFile(trimmed)) {
    const fromFile = pemCandidates(readFileSync(trimmed, 'utf8').trim(), kind);
    if (fromFile === undefined) throw new Error(`${kind} key file ${trimmed} holds neither PEM nor base64`);
    return fromFile;
  }
  const fromText = pemCandidates(unescapeNewlines(trimmed), kind);
  if (fromText === undefined) throw new Error(`${kind} key is neither PEM text, nor the path of a readable file, nor base64`);
  return fromText;
}

function keyObjectOf(pem: string, kind: PemKind): KeyObject {
  // Node derives a public key from a private one; here that would hide a key pasted in the wrong place.
  if (kind === 'public' && /-----BEGIN (RSA |ENCRYPTED )?PRIVATE KEY-----/.test(pem)) {
    throw new Error('public key expected, but a private key was given');
  }
  return kind === 'private' ? createPrivateKey(pem) : createPublicKey(pem);
}

/** The first candidate Node can read, or an Error with Node's reason (it never quotes the key). */
function firstReadable(candidates: string[], kind: PemKind): KeyObject {
  let reason = 'no key';
  for (const pem of candidates) {
    try {
      return keyObjectOf(pem, kind);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('public key expected')) throw error;
      if (reason === 'no key') reason = error instanceof Error ? error.message : String(error);
    }
  }
  throw new Error(`${kind} key cannot be read: ${reason}`);
}

/**
 * The RSA key in `value` as canonical PEM (PKCS#8 for a private key, SPKI for a public one; a
 * public key may also come as an X.509 certificate). Throws an Error naming the problem, never
 * quoting the key.
 */
export function loadPem(value: string, kind: PemKind): string {
  const key = firstReadable(candidatesOf(value, kind), kind);
  if (key.asymmetricKeyType !== 'rsa') {
    throw new Error(`${kind} key must be RSA (SHA256withRSA), not ${key.asymmetricKeyType ?? 'unknown'}`);
  }
  const pem = kind === 'private' ? key.export({ type: 'pkcs8', format: 'pem' }) : key.export({ type: 'spki', format: 'pem' });
  return pem.toString();
}
