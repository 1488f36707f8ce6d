/**
 * `cad server status|start|stop|run` in a process of the command's own, and the start of the
 * resident engine in the background after a command the client could not hand to one
 * (decision 0024). Inside the engine the same subcommands are answered by server.ts.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { buildClient, clientBuildFailed, type ClientBuild } from './client-build';
import { CLIENT_BIN, CLIENT_SOURCE, defaultSocket, engineDisabled, engineSocket, ENTRY, privateFolder } from './place';
import { askEngine, busyEngine } from './protocol';
import { serve, type RunCommand } from './server';

/** The client this installation builds (its default socket, this Node, bin/cad.cjs). */
export function clientBuild(): ClientBuild | null {
  const socket = defaultSocket();
  return socket ? { out: CLIENT_BIN, source: CLIENT_SOURCE, socket, node: process.execPath, entry: ENTRY } : null;
}

/** Why the client ran the command here instead ($CAD_SERVER_FALLBACK), when it means "start an engine". */
const START_REASONS = new Set(['no-client', 'no-server', 'stale', 'lost']);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Starts an engine in the background (detached, no terminal) unless one is starting or running:
 * `<socket>.pid`, created exclusively, names the one that was started. Returns its pid, or null.
 */
export function spawnEngine(env: NodeJS.ProcessEnv = process.env): number | null {
  const socket = engineSocket(env);
  if (!socket || !privateFolder(socket, true)) return null;
  const pidFile = `${socket}.pid`;
  let fd: number;
  try {
    fd = openSync(pidFile, 'wx', 0o600);
  } catch {
    // One was started: is it still there?
    let pid = NaN;
    try {
      pid = Number(readFileSync(pidFile, 'utf8').trim());
    } catch {
      return null;
    }
    if (Number.isInteger(pid) && pid > 0 && alive(pid)) return null;
    rmSync(pidFile, { force: true });
    try {
      fd = openSync(pidFile, 'wx', 0o600);
    } catch {
      return null;
    }
  }
  try {
    const childEnv = { ...env };
    delete childEnv['CAD_SERVER_FALLBACK'];
    const child = spawn(process.execPath, [ENTRY, 'server', 'run'], { detached: true, stdio: 'ignore', env: childEnv, cwd: '/' });
    child.unref();
    if (!child.pid) throw new Error('not started');
    writeSync(fd, String(child.pid));
    return child.pid;
  } catch {
    rmSync(pidFile, { force: true });
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * After a command that ran here because the client could not hand it to an engine: start one for
 * the next commands. Only when the client asked for this process ($CAD_SERVER_FALLBACK), so that
 * `node bin/cad.cjs` (tests, scripts that want a process of their own) never leaves one behind.
 */
export function startEngineAfterFallback(env: NodeJS.ProcessEnv = process.env): void {
  const reason = env['CAD_SERVER_FALLBACK'];
  if (!reason || !START_REASONS.has(reason) || engineDisabled(env) || env['CAD_NO_BUNDLE']) return;
  const build = clientBuild();
  // No compiler: an engine nobody can reach would start again and again.
  if (!build || clientBuildFailed(build)) return;
  spawnEngine(env);
}

const request = (args: string[]) => ({ cwd: process.cwd(), umask: process.umask(), args, env: {} });

/** The `server` subcommand in a process of its own. */
export async function serverCommand(
  args: string[],
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
  run: RunCommand,
  warmUp?: () => Promise<void>,
): Promise<number> {
  const [sub, ...rest] = args;
  if (rest.length) {
    err.write(`cad: unexpected argument '${rest[0]}' (cad server status|start|stop|run)\n`);
    return 2;
  }
  const socket = engineSocket();
  if (sub === 'status' || sub === 'stop') {
    let answer = socket ? await askEngine(socket, request(['server', sub])) : null;
    // An engine running a command answers once it is done: stop waits for that (up to 2 minutes).
    for (let i = 0; sub === 'stop' && socket && answer?.ran === false && answer.reason === 'busy' && i < 1200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      answer = await askEngine(socket, request(['server', sub]));
    }
    if (answer?.ran) {
      out.write(answer.stdout);
      return answer.code;
    }
    if (socket && answer?.reason === 'busy') {
      const pid = busyEngine(socket);
      if (sub === 'status') {
        out.write(`the resident engine is running a command${pid ? ` (pid ${pid})` : ''}\n`);
        return 0;
      }
      err.write(`cad: the resident engine${pid ? ` (pid ${pid})` : ''} is still running a command after 2 minutes\n`);
      return 1;
    }
    if (sub === 'stop') {
      out.write('no resident engine is running\n');
      return 0;
    }
    out.write(`no resident engine is running${socket ? ` (socket ${socket})` : ''}\n`);
    return 3;
  }
  if (sub === 'start' || sub === 'run') {
    if (engineDisabled()) {
      err.write(
        `cad: the resident engine is ${process.env['CAD_SERVER'] === '0' ? 'turned off (CAD_SERVER=0)' : 'not available on this system'}\n`,
      );
      return 1;
    }
    if (!privateFolder(socket as string, true)) {
      err.write(`cad: the folder of ${socket} must be this user's alone (mode 0700): the resident engine does not start there\n`);
      return 1;
    }
    const build = clientBuild();
    if (sub === 'run') {
      // The client is built before the engine listens: an engine nobody could reach is no use.
      const why = build ? await buildClient(build) : 'no Unix user id';
      if (why) {
        err.write(`cad: cannot build the client of the resident engine: ${why}\n`);
        return 1;
      }
      // Set by bin/cad.cjs: whether the bundle this process runs is older than the sources.
      const isStale = (globalThis as { __xcadBundleStale?: () => boolean }).__xcadBundleStale;
      if (!isStale) {
        err.write('cad: the resident engine runs from the bundled command only (not with CAD_NO_BUNDLE)\n');
        return 1;
      }
      const { keepDwgReader, releaseDwgReader } = await import('@xcad/cad/dwg-client');
      // DWG files are read by one reader child kept for a minute, not a child per file.
      keepDwgReader(60_000);
      const code = await serve({
        socket: socket as string,
        run,
        ...(idleMs() ? { idleMs: idleMs() as number } : {}),
        isStale,
        ...(warmUp ? { warmUp } : {}),
        onStop: releaseDwgReader,
      });
      return code;
    }
    // start: in the background, then wait until it answers (one running a command counts).
    const first = await askEngine(socket as string, request(['server', 'status']));
    const started = first.ran || first.reason === 'busy' ? null : spawnEngine({ ...process.env });
    for (let i = 0; i < 300; i++) {
      const answer = await askEngine(socket as string, request(['server', 'status']));
      const pid = answer.ran
        ? (JSON.parse(answer.stdout) as { pid: number }).pid
        : answer.reason === 'busy'
          ? busyEngine(socket as string)
          : null;
      if (pid !== null) {
        out.write(`the resident engine is running (pid ${pid})\n`);
        return 0;
      }
      if (started !== null && !alive(started)) {
        err.write(`cad: the resident engine stopped as it started (run 'cad server run' to see why)\n`);
        return 1;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    err.write('cad: the resident engine did not start within 30 s\n');
    return 1;
  }
  err.write(`cad: ${sub === undefined ? 'missing subcommand' : `unknown subcommand '${sub}'`}: cad server status|start|stop|run\n`);
  return 2;
}

/** $CAD_SERVER_IDLE: seconds without a command before the engine stops. */
function idleMs(): number | null {
  const v = Number(process.env['CAD_SERVER_IDLE']);
  return Number.isFinite(v) && v > 0 ? v * 1000 : null;
}
