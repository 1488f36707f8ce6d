/**
 * The resident engine (decision 0024): a Node process that keeps the `cad` command's code loaded
 * and compiled, and runs the commands the native client hands it, one at a time, each in the
 * client's working folder, umask and CAD_* settings, with its output and exit status relayed.
 *
 * - It declines a command (the client then runs it in a process of its own, same result) when it
 *   is busy with another, when the command's sources changed since it started (it then stops),
 *   or when the client's CAD_* settings that are read once per process differ from its own.
 * - A command it has taken runs exactly as in a process of its own: `main` from cli.ts.
 * - It stops after `idleMs` without a command, when its socket file is removed or replaced,
 *   when it grew past `maxRssBytes`, or on `cad server stop`.
 * - While a command runs, SIGTERM ends the process at once (the client sends it on Ctrl+C), as
 *   it would end a process of the command's own; when idle, SIGTERM stops it cleanly.
 */
import { lstatSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { busyMark, decodeRequest, frame, FrameReader, ProtocolError, type EngineRequest } from './protocol';
import { privateFolder } from './place';

export type RunCommand = (args: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream) => Promise<number>;

export interface ServeOptions {
  socket: string;
  /** The command: cli.ts's main. */
  run: RunCommand;
  /** Stop after this long without a command (default 15 minutes). */
  idleMs?: number;
  /** Whether the command's code changed since this process loaded it. */
  isStale?: () => boolean;
  /** Stop after a command that left the process larger than this (default 1 GiB). */
  maxRssBytes?: number;
  /** Runs before the socket is published (compiling the common code paths). */
  warmUp?: () => Promise<void>;
  /** Runs once the engine has stopped (closing helper processes). */
  onStop?: () => void | Promise<void>;
}

/** Settings read on every command: taken from the client for the duration of its command. */
const PER_COMMAND_VARS = ['CAD_FONT_DIR', 'CAD_DEBUG'];
/** The client's and the engine's own switches: never compared. */
const CONTROL_VARS = /^CAD_SERVER(_|$)/;
const ENGINE_VAR = /^X?CAD_/;

/** How long the engine waits for the client's go-ahead after acknowledging a command. */
const GO_WAIT_MS = 10_000;
const SOCKET_CHECK_MS = 30_000;

/** The CAD_* settings of a request that this process would read differently (empty when none). */
export function settingsDiffer(request: Record<string, string>, own: NodeJS.ProcessEnv): string[] {
  const names = new Set(
    [...Object.keys(request), ...Object.keys(own)].filter(
      (k) => ENGINE_VAR.test(k) && !CONTROL_VARS.test(k) && !PER_COMMAND_VARS.includes(k),
    ),
  );
  return [...names].filter((k) => (request[k] ?? '') !== (own[k] ?? '')).sort();
}

/** Whether an engine answers at `socket`. */
function engineAnswers(socket: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const conn = connect(socket);
    const done = (live: boolean): void => {
      clearTimeout(timer);
      conn.destroy();
      resolve(live);
    };
    const timer = setTimeout(() => done(true), timeoutMs);
    conn.on('connect', () => done(true));
    conn.on('error', () => done(false));
  });
}

/** What `cad server status` prints about the engine that answers it. */
interface EngineStatus {
  pid: number;
  socket: string;
  startedAt: string;
  commands: number;
  rssMb: number;
  idleTimeoutSeconds: number;
  node: string;
}

/**
 * Runs the engine until it stops; resolves to the exit status for the process. Resolves at once
 * (status 0) when another engine already answers at the socket.
 */
export async function serve(options: ServeOptions): Promise<number> {
  const { socket, run } = options;
  const idleMs = options.idleMs ?? 15 * 60_000;
  const maxRss = options.maxRssBytes ?? 2 ** 30;
  if (!privateFolder(socket, true)) throw new Error(`the folder of ${socket} is not this user's alone (mode 0700)`);
  if (await engineAnswers(socket)) return 0;
  await options.warmUp?.();

  const startedAt = new Date();
  let commands = 0;
  let busy = false;
  let stopping = false;
  let published: number | null = null;
  let idleTimer: NodeJS.Timeout | null = null;
  let resolveStopped: (code: number) => void = () => {};
  const stopped = new Promise<number>((resolve) => (resolveStopped = resolve));
  const ownEnv = { ...process.env };

  const onTerm = (): void => void stop();
  const armIdle = (): void => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => void stop(), idleMs);
  };

  // While a command runs, <socket>.busy holds this pid: the client then runs a second command on
  // its own at once, where it would otherwise wait for an acknowledgement that the blocked event
  // loop cannot send (client.c's engine_busy).
  const markBusy = (on: boolean): void => {
    try {
      if (on) writeFileSync(busyMark(socket), String(process.pid));
      else rmSync(busyMark(socket), { force: true });
    } catch {
      // Without the mark a second client waits for the acknowledgement, then runs on its own.
    }
  };

  const server: Server = createServer((conn) => handle(conn));
  const tmp = `${socket}.${process.pid}.tmp`;
  rmSync(tmp, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(tmp, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Published in one step, unless another engine took the socket meanwhile.
  if (await engineAnswers(socket)) {
    server.close();
    rmSync(tmp, { force: true });
    return 0;
  }
  renameSync(tmp, socket);
  published = lstatSync(socket).ino;
  markBusy(false);
  server.on('error', () => void stop());
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', onTerm);
  process.on('SIGHUP', onTerm);
  armIdle();
  // Another engine replaced the socket, or someone removed it: nobody can reach this one.
  const watch = setInterval(() => {
    let ino: number | null = null;
    try {
      ino = lstatSync(socket).ino;
    } catch {
      ino = null;
    }
    if (ino !== published) void stop();
  }, SOCKET_CHECK_MS);
  watch.unref();

  async function stop(): Promise<void> {
    if (stopping) return;
    stopping = true;
    if (idleTimer) clearTimeout(idleTimer);
    clearInterval(watch);
    process.off('SIGTERM', onTerm);
    process.off('SIGINT', onTerm);
    process.off('SIGHUP', onTerm);
    server.close();
    try {
      if (lstatSync(socket).ino === published) rmSync(socket, { force: true });
    } catch {
      // Already gone.
    }
    try {
      if (readFileSync(`${socket}.pid`, 'utf8').trim() === String(process.pid)) rmSync(`${socket}.pid`, { force: true });
    } catch {
      // No pid file (started by hand).
    }
    try {
      await options.onStop?.();
    } finally {
      resolveStopped(0);
    }
  }

  function status(): EngineStatus {
    return {
      pid: process.pid,
      socket,
      startedAt: startedAt.toISOString(),
      commands,
      rssMb: Math.round(process.memoryUsage.rss() / 2 ** 20),
      idleTimeoutSeconds: Math.round(idleMs / 1000),
      node: process.version,
    };
  }

  function handle(conn: Socket): void {
    const reader = new FrameReader();
    // 'request': reading it; 'acked': waiting for the go-ahead; 'running'; 'done': declined or dropped.
    let state: 'request' | 'acked' | 'running' | 'done' = 'request';
    let request: EngineRequest | null = null;
    let goTimer: NodeJS.Timeout | null = null;
    const decline = (reason: string): void => {
      state = 'done';
      conn.end(frame('f', reason));
    };
    // A client that gave up before the go-ahead: its command is dropped and the engine is free.
    const release = (): void => {
      if (goTimer) clearTimeout(goTimer);
      if (state !== 'acked') return;
      state = 'done';
      busy = false;
      if (!stopping) armIdle();
    };
    conn.on('error', () => {});
    conn.on('close', release);
    conn.on('data', (chunk: Buffer) => {
      if (state === 'running' || state === 'done') return;
      reader.push(chunk);
      try {
        if (state === 'request') {
          const f = reader.next();
          if (!f) return;
          if (f.type !== 'q') throw new ProtocolError(`expected a request, got '${f.type}'`);
          request = decodeRequest(f.data);
          if (stopping) return decline('stopping');
          if (busy) return decline('busy');
          if (options.isStale?.()) {
            decline('stale');
            void stop();
            return;
          }
          // `cad server status|stop|start` read no settings: answered whatever the asker's are.
          if (request.args[0] !== 'server' && settingsDiffer(request.env, ownEnv).length) return decline('env');
          busy = true;
          state = 'acked';
          if (idleTimer) clearTimeout(idleTimer);
          const pid = Buffer.alloc(4);
          pid.writeUInt32BE(process.pid);
          conn.write(frame('a', pid));
          goTimer = setTimeout(() => conn.destroy(), GO_WAIT_MS);
        }
        const go = reader.byte();
        if (go === null || !request) return;
        if (go !== 0x67 /* 'g' */) throw new ProtocolError('expected the go-ahead');
        if (goTimer) clearTimeout(goTimer);
        state = 'running';
        void execute(conn, request);
      } catch (e) {
        release();
        decline(e instanceof ProtocolError ? 'protocol' : 'error');
      }
    });
  }

  async function execute(conn: Socket, request: EngineRequest): Promise<void> {
    const send = (type: 'o' | 'e') =>
      ({
        write(chunk: string | Uint8Array): boolean {
          if (!conn.destroyed) conn.write(frame(type, typeof chunk === 'string' ? chunk : Buffer.from(chunk)));
          return true;
        },
      }) as unknown as NodeJS.WritableStream;
    const out = send('o');
    const err = send('e');
    let code = 1;
    // During the command, SIGTERM (Ctrl+C at the client) ends the process at once.
    process.off('SIGTERM', onTerm);
    markBusy(true);
    try {
      code = await runOne(request, out, err);
    } catch (e) {
      // main() never throws; this is the engine's own failure.
      err.write(`cad: internal error: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`);
      code = 1;
    }
    markBusy(false);
    conn.end(frame('x', Uint8Array.of(code & 0xff)));
    commands++;
    busy = false;
    if (stopping) return;
    process.on('SIGTERM', onTerm);
    if (process.memoryUsage.rss() > maxRss) void stop();
    else armIdle();
  }

  async function runOne(request: EngineRequest, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
    const [command, sub] = request.args;
    if (command === 'server') {
      if (sub === 'status') {
        out.write(`${JSON.stringify(status(), null, 2)}\n`);
        return 0;
      }
      if (sub === 'stop') {
        out.write(`stopped the resident engine (pid ${process.pid})\n`);
        setImmediate(() => void stop());
        return 0;
      }
      if (sub === 'start' || sub === 'run') {
        out.write(`the resident engine is running (pid ${process.pid})\n`);
        return 0;
      }
      // Anything else is the command's own usage error.
    }
    try {
      process.chdir(request.cwd);
    } catch (e) {
      err.write(`cad: cannot work in ${request.cwd}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
      return 1;
    }
    process.umask(request.umask);
    for (const name of PER_COMMAND_VARS) {
      const value = request.env[name];
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    return run(request.args, out, err);
  }

  return stopped;
}
