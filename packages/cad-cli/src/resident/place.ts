/**
 * Where the resident engine and its client live (decision 0024): the socket in a folder of the
 * user's own under /tmp, one engine per installation of this package and Node binary; the
 * client next to the command's bundles.
 */
import { lstatSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheKey } from '@xcad/cad/fonts';

/** packages/cad-cli/ (this file is src/resident/place.ts; bundled, import.meta.url still names it). */
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The Node entry of the command, which the client runs when the engine cannot take a command. */
export const ENTRY = join(PACKAGE_ROOT, 'bin', 'cad.cjs');
/** The native client; bin/cad runs it when it exists (same path there). */
export const CLIENT_BIN = join(PACKAGE_ROOT, 'node_modules', '.cache', 'cad-cli', 'cad-client');
/** The client's source (read by the build). */
export const CLIENT_SOURCE = fileURLToPath(new URL('./client.c', import.meta.url));

/** Unix socket paths hold at most 107 bytes (Linux; 103 on macOS). */
const MAX_SOCKET_PATH = 103;

/**
 * The socket path the client is built with: /tmp/xcad-cad-<uid>/<hash>.sock, the hash naming this
 * installation and Node binary. A fixed folder rather than $TMPDIR, which may differ between the
 * shells that start the engine and run the client. Null where there are no Unix user ids.
 */
export function defaultSocket(execPath = process.execPath): string | null {
  const uid = process.getuid?.();
  if (uid === undefined || process.platform === 'win32') return null;
  return `/tmp/xcad-cad-${uid}/${cacheKey(`${PACKAGE_ROOT}\0${execPath}`)}.sock`;
}

/** The socket of this environment: $CAD_SERVER_SOCKET, else the default; null when unusable. */
export function engineSocket(env: NodeJS.ProcessEnv = process.env): string | null {
  const path = env['CAD_SERVER_SOCKET'] || defaultSocket();
  return path && path.startsWith('/') && Buffer.byteLength(path) <= MAX_SOCKET_PATH ? path : null;
}

/** Whether the engine is turned off ($CAD_SERVER=0) or impossible here. */
export function engineDisabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['CAD_SERVER'] === '0' || engineSocket(env) === null;
}

/**
 * Makes sure the socket's folder exists, belongs to this user and is closed to everyone else
 * (0700): whoever can reach the socket can run commands as this user. False when it is not so
 * (a folder someone else made): the engine is then not used.
 */
export function privateFolder(socket: string, create: boolean): boolean {
  const dir = dirname(socket);
  if (create) {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch {
      // It exists (checked below) or cannot be made.
    }
  }
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === process.getuid?.() && (st.mode & 0o077) === 0;
  } catch {
    return false;
  }
}
