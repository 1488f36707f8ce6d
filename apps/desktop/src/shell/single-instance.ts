import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// One app per data folder: the first launch listens on a Unix socket in that folder; a second
// launch connects, asks the first to bring its window forward and exits. A socket file left by a
// crashed app answers nobody, so it is replaced.

const FOCUS_REQUEST = 'focus\n';
const FOCUS_REPLY = 'focused\n';
// sockaddr_un holds 108 bytes on Linux; a deeper data folder gets a socket named after it in /tmp.
const MAX_SOCKET_PATH_BYTES = 100;

export function instanceSocketPath(dataDir: string): string {
  const inDataDir = path.join(dataDir, 'instance.sock');
  if (Buffer.byteLength(inDataDir) <= MAX_SOCKET_PATH_BYTES) return inDataDir;
  const digest = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `xcad-desktop-${digest}.sock`);
}

export type InstanceLock = { readonly isPrimary: true; release(): Promise<void> } | { readonly isPrimary: false };

function listen(socketPath: string, onFocus: () => Promise<void>): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((socket) => {
      socket.setEncoding('utf8');
      let received = '';
      socket.on('data', (chunk: string) => {
        received += chunk;
        if (received.length > 64) socket.destroy();
        else if (received === FOCUS_REQUEST) {
          onFocus().then(
            () => socket.end(FOCUS_REPLY),
            () => socket.end('failed\n'),
          );
        }
      });
      socket.on('error', () => undefined);
    });
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** Resolves true when a running app took the request, false when nothing listens there. */
function askToFocus(socketPath: string, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    socket.setEncoding('utf8');
    let reply = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the running desktop app did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('connect', () => socket.write(FOCUS_REQUEST));
    socket.on('data', (chunk: string) => {
      reply += chunk;
    });
    socket.on('end', () => {
      clearTimeout(timer);
      if (reply === FOCUS_REPLY) resolve(true);
      else reject(new Error('the running desktop app could not bring its window forward'));
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') resolve(false);
      else reject(error);
    });
  });
}

/**
 * Becomes the app of `dataDir` (isPrimary) or, when one already runs, has it focus its window
 * (not primary). `onFocus` runs in the primary app for each later launch.
 */
export async function acquireInstanceLock(dataDir: string, onFocus: () => Promise<void>, timeoutMs = 10_000): Promise<InstanceLock> {
  const socketPath = instanceSocketPath(dataDir);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const server = await listen(socketPath, onFocus);
      return {
        isPrimary: true,
        release: () =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
          }),
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
    if (await askToFocus(socketPath, timeoutMs)) return { isPrimary: false };
    // Nobody listens: the socket file is left from an app that did not exit cleanly.
    rmSync(socketPath, { force: true });
  }
  throw new Error(`could not take the desktop app's lock at ${socketPath}`);
}
