// The `cad` command as the benchmarks time it: packages/cad-cli/bin/cad, as a user runs it, handing its
// work to a resident engine (decision 0024) with a socket of the bench's own, or cold (CAD_SERVER=0,
// a Node process per command). The engine is started before the timing and stopped after it, and
// reports how many commands it ran, so a bench can check that none of its timed commands ran cold.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The command timed: bin/cad as installed (CAD_CLI names another; a .cjs/.js one runs under this Node). */
export const CLI = process.env.CAD_CLI ? path.resolve(process.env.CAD_CLI) : path.join(root, 'packages', 'cad-cli', 'bin', 'cad');

/** The engine's socket for this run: a folder of the bench's own, so no other engine answers. */
const ENGINE_SOCKET = path.join(mkdtempSync(path.join(tmpdir(), 'cad-bench-')), 'engine.sock');
const RESIDENT_ENV: NodeJS.ProcessEnv = { ...process.env, CAD_SERVER_SOCKET: ENGINE_SOCKET };
delete RESIDENT_ENV['CAD_SERVER'];
const COLD_ENV: NodeJS.ProcessEnv = { ...process.env, CAD_SERVER: '0' };

/** How to run `cad ARGS`: command, arguments and environment. */
export function cadArgv(args: string[], cold = false): { cmd: string; argv: string[]; env: NodeJS.ProcessEnv } {
  const env = cold ? COLD_ENV : RESIDENT_ENV;
  return /\.c?js$/.test(CLI) ? { cmd: process.execPath, argv: [CLI, ...args], env } : { cmd: CLI, argv: args, env };
}

function serverCommand(sub: string): Promise<{ code: number | null; stdout: string }> {
  const { cmd, argv, env } = cadArgv(['server', sub]);
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

/** The commands the engine has run so far; -1 when none answers. */
export async function engineCommands(): Promise<number> {
  const r = await serverCommand('status');
  try {
    return r.code === 0 ? (JSON.parse(r.stdout) as { commands: number }).commands : -1;
  } catch {
    return -1;
  }
}

/** Starts the engine (its bundle, client and warm-up); prints how long that took. */
export async function startEngine(): Promise<void> {
  const t = performance.now();
  const started = await serverCommand('start');
  if (started.code !== 0) throw new Error(`cad server start failed: ${started.stdout}`);
  console.log(`resident engine: ${started.stdout.trim()} after ${((performance.now() - t) / 1000).toFixed(1)} s (socket ${ENGINE_SOCKET})`);
}

export async function stopEngine(): Promise<void> {
  await serverCommand('stop');
  rmSync(path.dirname(ENGINE_SOCKET), { recursive: true, force: true });
}

/**
 * Counts the commands a bench sends to the engine, and at the end tells whether the engine ran
 * them all (a command it declined ran cold: no engine figure).
 */
export class EngineTally {
  private base = 0;
  sent = 0;

  async begin(): Promise<void> {
    await startEngine();
    this.base = await engineCommands();
  }

  /** "the resident engine ran N of the M timed commands"; `all` when it ran every one. */
  async check(): Promise<{ all: boolean; line: string }> {
    // The status command the count comes from is not one of them.
    const ran = (await engineCommands()) - this.base - 1;
    const all = ran >= this.sent;
    return {
      all,
      line: `the resident engine ran ${ran} of the ${this.sent} timed commands${all ? '' : ' (the others ran cold: NOT an engine figure)'}`,
    };
  }
}
