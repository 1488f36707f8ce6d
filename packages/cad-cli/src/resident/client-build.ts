/**
 * Builds the native client (client.c) with the system's C compiler ($CC, else cc), baking in the
 * default socket, the Node binary and the command's Node entry. Rebuilt when any of those or the
 * source changes (a stamp file beside the binary); a failed build is remembered for a day so
 * that every run does not try again (no compiler: the command simply runs in Node).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { cacheKey } from '@xcad/cad/fonts';

export interface ClientBuild {
  /** Where the binary goes. */
  out: string;
  source: string;
  /** Baked-in default socket path. */
  socket: string;
  /** The Node binary and entry the client falls back to. */
  node: string;
  entry: string;
  /** The C compiler (default $CC, else cc). */
  cc?: string;
}

const FAILED_RETRY_MS = 24 * 3600_000;

/** A C string literal of a path (refused when it holds control characters). */
function cString(value: string): string {
  if ([...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    throw new Error(`cannot bake a path with control characters into the client: ${JSON.stringify(value)}`);
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

function stampOf(b: ClientBuild, cc: string): string {
  return cacheKey([readFileSync(b.source, 'utf8'), b.socket, b.node, b.entry, cc].join('\0'));
}

const readText = (file: string): string | null => {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
};

/** Whether the last build of this very client failed less than a day ago. */
export function clientBuildFailed(b: ClientBuild): boolean {
  try {
    const cc = b.cc ?? process.env['CC'] ?? 'cc';
    const file = `${b.out}.failed`;
    return readText(file) === stampOf(b, cc) && Date.now() - statSync(file).mtimeMs < FAILED_RETRY_MS;
  } catch {
    return false;
  }
}

/** Builds the client unless an up-to-date one exists. Resolves to null when built or current, else the reason. */
export async function buildClient(b: ClientBuild): Promise<string | null> {
  const cc = b.cc ?? process.env['CC'] ?? 'cc';
  let stamp: string;
  try {
    stamp = stampOf(b, cc);
  } catch (e) {
    return `cannot read the client's source: ${(e as Error).message}`;
  }
  if (readText(`${b.out}.stamp`) === stamp) {
    try {
      if (statSync(b.out).isFile()) return null;
    } catch {
      // Built before, since removed: build again.
    }
  }
  const tmp = `${b.out}.${process.pid}.tmp`;
  const fail = (reason: string): string => {
    rmSync(tmp, { force: true });
    try {
      writeFileSync(`${b.out}.failed`, stamp);
    } catch {
      // Not remembered: the next engine start tries again.
    }
    return reason;
  };
  let defines: string[];
  try {
    defines = [`-DCAD_SOCKET=${cString(b.socket)}`, `-DCAD_NODE=${cString(b.node)}`, `-DCAD_ENTRY=${cString(b.entry)}`];
    mkdirSync(dirname(b.out), { recursive: true });
  } catch (e) {
    return fail((e as Error).message);
  }
  const error = await new Promise<string | null>((resolve) => {
    execFile(cc, ['-std=c99', '-O2', '-Wall', ...defines, '-o', tmp, b.source], { timeout: 60_000 }, (err, _stdout, stderr) =>
      resolve(err ? `${cc} failed: ${(stderr || err.message).trim().split('\n')[0]}` : null),
    );
  });
  if (error) return fail(error);
  try {
    // Replaced in one step: a client starting meanwhile runs the old or the new binary, never half of one.
    renameSync(tmp, b.out);
    writeFileSync(`${b.out}.stamp`, stamp);
    rmSync(`${b.out}.failed`, { force: true });
  } catch (e) {
    return fail((e as Error).message);
  }
  return null;
}
