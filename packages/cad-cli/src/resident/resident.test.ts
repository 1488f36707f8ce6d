/**
 * The resident engine's client and server (decision 0024), with the real native client built by
 * client-build.ts and the real serve() running made-up commands in a process of its own
 * (test-server.ts). The client's fallback entry is a script that reports how it was started, so
 * every test can tell whether the engine ran the command or the client ran it on its own, and why.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildClient } from './client-build';
import { CLIENT_SOURCE } from './place';
import { askEngine, decodeRequest, encodeRequest, frame, FrameReader, ProtocolError } from './protocol';
import { settingsDiffer } from './server';

const SERVER = fileURLToPath(new URL('./test-server.ts', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'cad-resident-'));
const CLIENT = join(root, 'bin', 'cad-client');
const FALLBACK = join(root, 'fallback.cjs');
// The "command in a process of its own": says why it was started, with which arguments.
writeFileSync(
  FALLBACK,
  'process.stdout.write(`cold:${process.env.CAD_SERVER_FALLBACK}:${JSON.stringify(process.argv.slice(2))}\\n`); process.exit(7);\n',
);

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

let n = 0;
/** A fresh private socket folder and path. */
function newSocket(): string {
  const dir = join(root, `s${++n}`);
  mkdirSync(dir, { mode: 0o700 });
  return join(dir, 'engine.sock');
}

function client(
  socket: string,
  args: string[],
  opts: { env?: Record<string, string>; cwd?: string; shell?: string } = {},
): Promise<Run> & { child: ChildProcess } {
  let child!: ChildProcess;
  const p = new Promise<Run>((resolve) => {
    const env = { PATH: process.env['PATH'] ?? '', CAD_SERVER_SOCKET: socket, ...opts.env };
    const [cmd, argv] = opts.shell ? ['/bin/sh', ['-c', `${opts.shell}; exec "$0" "$@"`, CLIENT, ...args]] : [CLIENT, args];
    child = execFile(
      cmd as string,
      argv as string[],
      { env, cwd: opts.cwd ?? root, encoding: 'utf8', maxBuffer: 64 << 20 },
      (err, stdout, stderr) => {
        resolve({ code: child.exitCode, signal: child.signalCode, stdout, stderr });
        void err;
      },
    );
  });
  return Object.assign(p, { child });
}

const engines: ChildProcess[] = [];
/** Starts test-server.ts at `socket` and waits until it answers. */
async function engine(socket: string, extra: string[] = []): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER, socket, ...extra], { stdio: ['ignore', 'ignore', 'pipe'] });
  engines.push(child);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  for (let i = 0; i < 200; i++) {
    // Up when it answers as itself (a socket file may be a dead engine's).
    const status = existsSync(socket)
      ? await askEngine(socket, { cwd: root, umask: 0o22, args: ['server', 'status'], env: {} }, 200)
      : null;
    if (status?.ran && (JSON.parse(status.stdout) as { pid: number }).pid === child.pid) return child;
    if (child.exitCode !== null) throw new Error(`the test engine exited ${child.exitCode}: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the test engine did not start: ${stderr}`);
}

const exited = (child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve({ code: child.exitCode, signal: child.signalCode })
    : new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

beforeAll(async () => {
  const why = await buildClient({
    out: CLIENT,
    source: CLIENT_SOURCE,
    socket: join(root, 'default', 'none.sock'),
    node: process.execPath,
    entry: FALLBACK,
  });
  expect(why).toBeNull();
}, 60_000);

afterEach(() => {
  for (const e of engines.splice(0)) if (e.exitCode === null && e.signalCode === null) e.kill('SIGKILL');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the native client', () => {
  it('compiles without warnings under -Wall -Wextra', async () => {
    const out = join(root, 'strict-client');
    const stderr = await new Promise<string>((resolve) =>
      execFile(
        'cc',
        ['-std=c99', '-Wall', '-Wextra', '-Werror', '-DCAD_SOCKET="/x"', '-DCAD_ENTRY="/y"', '-o', out, CLIENT_SOURCE],
        (err, _o, e) => resolve(err ? e || err.message : ''),
      ),
    );
    expect(stderr).toBe('');
  });

  it('is rebuilt only when its source or a baked-in path changes', async () => {
    const build = {
      out: CLIENT,
      source: CLIENT_SOURCE,
      socket: join(root, 'default', 'none.sock'),
      node: process.execPath,
      entry: FALLBACK,
    };
    const before = statSync(CLIENT).mtimeMs;
    expect(await buildClient(build)).toBeNull();
    expect(statSync(CLIENT).mtimeMs).toBe(before);
    const other = join(root, 'bin', 'other-client');
    expect(await buildClient({ ...build, out: other, cc: join(root, 'no-such-cc') })).toMatch(/no-such-cc failed/);
    expect(existsSync(other)).toBe(false);
  });

  it('runs the command on its own when no engine is running', async () => {
    const r = await client(newSocket(), ['convert', 'a b.dxf', 'out.pdf']);
    expect(r.stdout).toBe('cold:no-server:["convert","a b.dxf","out.pdf"]\n');
    expect(r.code).toBe(7);
  });

  it('runs it on its own with CAD_SERVER=0, without asking the engine', async () => {
    const socket = newSocket();
    await engine(socket);
    const r = await client(socket, ['echo', 'hi'], { env: { CAD_SERVER: '0' } });
    expect(r.stdout).toBe('cold:off:["echo","hi"]\n');
  });

  it('does not use a socket whose folder others can enter', async () => {
    const socket = newSocket();
    await engine(socket);
    chmodSync(join(socket, '..'), 0o755);
    const r = await client(socket, ['echo', 'hi']);
    expect(r.stdout).toBe('cold:no-server:["echo","hi"]\n');
  });
});

describe('a command in the engine', () => {
  it('relays stdout, stderr and the exit status, arguments intact', async () => {
    const socket = newSocket();
    await engine(socket);
    const r = await client(socket, ['echo', 'plain', 'with space', '', '平面图 ü']);
    expect(r).toMatchObject({ code: 5, stdout: 'plain with space  平面图 ü\n', stderr: 'to stderr\n' });
  });

  it("runs in the client's working folder, umask and CAD_FONT_DIR", async () => {
    const socket = newSocket();
    await engine(socket);
    const cwd = mkdtempSync(join(root, 'cwd-'));
    const r = await client(socket, ['where'], { cwd, env: { CAD_FONT_DIR: '/fonts/a:/fonts/b' }, shell: 'umask 027' });
    expect(r.stdout).toBe(`${cwd}\n27\n/fonts/a:/fonts/b\n`);
    // The next command without the variable does not inherit it.
    const again = await client(socket, ['where'], { shell: 'umask 022' });
    expect(again.stdout).toBe(`${root}\n22\n-\n`);
  });

  it('relays large output whole', async () => {
    const socket = newSocket();
    await engine(socket);
    const r = await client(socket, ['big', String(3_000_000)]);
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBe(3_000_000);
    expect(r.stdout.split('\n').every((l) => /^x*$/.test(l))).toBe(true);
  });

  it('declines settings read once per process that differ, and the client runs the command itself', async () => {
    const socket = newSocket();
    await engine(socket);
    const r = await client(socket, ['echo', 'x'], { env: { XCAD_CJK_FONT: '/other/font.ttc' } });
    expect(r.stdout).toBe('cold:env:["echo","x"]\n');
    // The engine's own subcommands read no settings: it answers them whatever the asker's are.
    const status = await client(socket, ['server', 'status'], { env: { XCAD_CJK_FONT: '/other/font.ttc' } });
    expect(JSON.parse(status.stdout)).toMatchObject({ socket });
    expect(settingsDiffer({ CAD_FONT_DIR: '/a', CAD_SERVER_WAIT_MS: '5' }, {})).toEqual([]);
    expect(settingsDiffer({ CAD_FONT_CACHE: '/a' }, { CAD_FONT_CACHE: '/b', PATH: '/x' })).toEqual(['CAD_FONT_CACHE']);
  });

  it('answers a second client at once while the first waits on I/O, and runs nothing twice', async () => {
    const socket = newSocket();
    await engine(socket);
    const first = client(socket, ['sleep', '1500']);
    await new Promise((r) => setTimeout(r, 300));
    const t = Date.now();
    const second = await client(socket, ['echo', 'x']);
    expect(second.stdout).toBe('cold:busy:["echo","x"]\n');
    expect(Date.now() - t).toBeLessThan(1000);
    expect((await first).stdout).toBe('slept\n');
  });

  it('while it converts (its event loop blocked), a second command runs on its own at once, by the busy mark', async () => {
    const socket = newSocket();
    await engine(socket);
    const cwd = mkdtempSync(join(root, 'cwd-'));
    const first = client(socket, ['spin', '1500']);
    await new Promise((r) => setTimeout(r, 300));
    expect(readFileSync(`${socket}.busy`, 'utf8')).toMatch(/^\d+$/);
    // Without the mark this client would wait for the acknowledgement, and get it after the spin.
    const second = await client(socket, ['touch', 'made-by-engine'], { cwd, env: { CAD_SERVER_WAIT_MS: '60000' } });
    expect(second.stdout).toBe('cold:busy:["touch","made-by-engine"]\n');
    expect((await first).stdout).toBe('spun\n');
    expect(existsSync(`${socket}.busy`)).toBe(false);
    expect(existsSync(join(cwd, 'made-by-engine'))).toBe(false);
  });

  it('drops the command of a client that gave up waiting for the acknowledgement', async () => {
    const socket = newSocket();
    await engine(socket);
    const cwd = mkdtempSync(join(root, 'cwd-'));
    const first = client(socket, ['spin', '1500']);
    await new Promise((r) => setTimeout(r, 300));
    // No mark (as in the instant before the engine writes it): the client waits, then gives up.
    rmSync(`${socket}.busy`);
    const second = await client(socket, ['touch', 'made-by-engine'], { cwd, env: { CAD_SERVER_WAIT_MS: '200' } });
    expect(second.stdout).toBe('cold:busy:["touch","made-by-engine"]\n');
    expect((await first).stdout).toBe('spun\n');
    // The engine read the abandoned request after the spin: it must not have run it.
    await new Promise((r) => setTimeout(r, 300));
    expect(existsSync(join(cwd, 'made-by-engine'))).toBe(false);
    // ...and it is free again.
    expect((await client(socket, ['echo', 'free'])).stdout).toBe('free\n');
  });

  it('ignores the busy mark of an engine that died mid-command', async () => {
    const socket = newSocket();
    const e = await engine(socket);
    const run = client(socket, ['sleep', '5000']);
    await new Promise((r) => setTimeout(r, 300));
    e.kill('SIGKILL');
    await run;
    expect(existsSync(`${socket}.busy`)).toBe(true);
    await engine(socket);
    expect((await client(socket, ['echo', 'new engine'])).stdout).toBe('new engine\n');
  });

  it('declines when its code is stale, and stops', async () => {
    const socket = newSocket();
    const stale = join(root, `stale-${n}`);
    const e = await engine(socket, ['--stale-file', stale]);
    expect((await client(socket, ['echo', 'fresh'])).stdout).toBe('fresh\n');
    writeFileSync(stale, '');
    expect((await client(socket, ['echo', 'x'])).stdout).toBe('cold:stale:["echo","x"]\n');
    expect(await exited(e)).toEqual({ code: 0, signal: null });
    expect(existsSync(socket)).toBe(false);
  });

  it('Ctrl+C at the client ends the engine mid-command, as it would end a process of its own', async () => {
    const socket = newSocket();
    const e = await engine(socket);
    const cwd = mkdtempSync(join(root, 'cwd-'));
    const run = client(socket, ['sleep', '5000'], { cwd });
    await new Promise((r) => setTimeout(r, 500));
    run.child.kill('SIGINT');
    const r = await run;
    expect(r.signal).toBe('SIGINT');
    expect(await exited(e)).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('runs the command itself when the engine dies before any output; reports it after some', async () => {
    const socket = newSocket();
    await engine(socket);
    expect((await client(socket, ['die-early'])).stdout).toBe('cold:lost:["die-early"]\n');
    const socket2 = newSocket();
    await engine(socket2);
    const late = await client(socket2, ['die-late']);
    expect(late.stdout).toBe('half\n');
    expect(late.stderr).toMatch(/^cad: internal error: the resident engine stopped during the command/);
    expect(late.code).toBe(1);
  });

  it('stops after its idle time and removes its socket', async () => {
    const socket = newSocket();
    const e = await engine(socket, ['--idle', '400']);
    expect((await client(socket, ['echo', 'x'])).code).toBe(5);
    expect(await exited(e)).toEqual({ code: 0, signal: null });
    expect(existsSync(socket)).toBe(false);
  });

  it('survives garbage on the socket and serves the next client', async () => {
    const socket = newSocket();
    await engine(socket);
    const reply = await new Promise<Buffer>((resolve) => {
      const conn = connect(socket);
      const chunks: Buffer[] = [];
      conn.on('connect', () => conn.write(Buffer.concat([frame('q', 'not a request\0')])));
      conn.on('data', (d: Buffer) => chunks.push(d));
      conn.on('close', () => resolve(Buffer.concat(chunks)));
    });
    expect(reply.subarray(5).toString()).toBe('protocol');
    expect(reply.subarray(0, 1).toString()).toBe('f');
    expect((await client(socket, ['echo', 'still here'])).stdout).toBe('still here\n');
  });

  it('answers status from the engine and stops on request', async () => {
    const socket = newSocket();
    const e = await engine(socket);
    await client(socket, ['echo', 'x']);
    const status = await askEngine(socket, { cwd: root, umask: 0o22, args: ['server', 'status'], env: {} });
    expect(status.ran).toBe(true);
    // The status that engine() waited on, and the echo.
    expect(status.ran && JSON.parse(status.stdout)).toMatchObject({ pid: e.pid, socket, commands: 2 });
    const stop = await client(socket, ['server', 'stop']);
    expect(stop.stdout).toBe(`stopped the resident engine (pid ${e.pid})\n`);
    expect(await exited(e)).toEqual({ code: 0, signal: null });
  });

  it('cad server status says when the engine is running a command; stop waits for it to finish', async () => {
    const socket = newSocket();
    const e = await engine(socket);
    const { serverCommand } = await import('./command');
    const capture = (): { stream: NodeJS.WritableStream; text: () => string } => {
      let text = '';
      return { stream: { write: (c: string) => ((text += c), true) } as unknown as NodeJS.WritableStream, text: () => text };
    };
    const saved = process.env['CAD_SERVER_SOCKET'];
    process.env['CAD_SERVER_SOCKET'] = socket;
    try {
      const first = client(socket, ['spin', '1500']);
      await new Promise((r) => setTimeout(r, 300));
      const out = capture();
      const noRun = async (): Promise<number> => 99;
      expect(await serverCommand(['status'], out.stream, capture().stream, noRun)).toBe(0);
      expect(out.text()).toBe(`the resident engine is running a command (pid ${e.pid})\n`);
      const stopOut = capture();
      expect(await serverCommand(['stop'], stopOut.stream, capture().stream, noRun)).toBe(0);
      expect((await first).stdout).toBe('spun\n');
      expect(stopOut.text()).toBe(`stopped the resident engine (pid ${e.pid})\n`);
      expect(await exited(e)).toEqual({ code: 0, signal: null });
    } finally {
      if (saved === undefined) delete process.env['CAD_SERVER_SOCKET'];
      else process.env['CAD_SERVER_SOCKET'] = saved;
    }
  });

  it('cad server start refuses a socket folder open to others at once, with the reason', async () => {
    const socket = newSocket();
    chmodSync(join(socket, '..'), 0o755);
    const { serverCommand } = await import('./command');
    let text = '';
    const err = { write: (c: string) => ((text += c), true) } as unknown as NodeJS.WritableStream;
    const saved = process.env['CAD_SERVER_SOCKET'];
    process.env['CAD_SERVER_SOCKET'] = socket;
    try {
      expect(await serverCommand(['start'], err, err, async () => 0)).toBe(1);
    } finally {
      if (saved === undefined) delete process.env['CAD_SERVER_SOCKET'];
      else process.env['CAD_SERVER_SOCKET'] = saved;
    }
    expect(text).toBe(`cad: the folder of ${socket} must be this user's alone (mode 0700): the resident engine does not start there\n`);
  });

  it('lets only one of two engines started together own the socket', async () => {
    const socket = newSocket();
    const a = await engine(socket);
    const b = spawn(process.execPath, ['--import', 'tsx', SERVER, socket], { stdio: 'ignore' });
    engines.push(b);
    expect(await exited(b)).toEqual({ code: 0, signal: null });
    expect(a.exitCode).toBeNull();
    expect((await client(socket, ['echo', 'one'])).stdout).toBe('one\n');
  });
});

describe('the wire format', () => {
  it('round-trips a request', () => {
    const r = {
      cwd: '/home/张/图纸',
      umask: 0o27,
      args: ['convert', '', 'a=b', '平面.dxf'],
      env: { CAD_FONT_DIR: 'x=y', XCAD_CJK_FONT: '' },
    };
    const f = encodeRequest(r);
    const reader = new FrameReader();
    reader.push(f.subarray(0, 3));
    expect(reader.next()).toBeNull();
    reader.push(f.subarray(3));
    const got = reader.next();
    expect(got?.type).toBe('q');
    expect(decodeRequest(got?.data as Buffer)).toEqual(r);
  });

  it('refuses malformed requests with a ProtocolError', () => {
    const bad =
      (text: string): (() => unknown) =>
      () =>
        decodeRequest(Buffer.from(text));
    expect(bad('xcad-cad/1\0/\0' + '18\0' + '0\0' + '0\0')).not.toThrow();
    expect(bad('xcad-cad/9\0/\0' + '18\0' + '0\0' + '0\0')).toThrow(ProtocolError);
    expect(bad('xcad-cad/1\0relative\0' + '18\0' + '0\0' + '0\0')).toThrow(/absolute/);
    expect(bad('xcad-cad/1\0/\0' + '18\0' + '2\0' + 'a\0')).toThrow(/ends early/);
    expect(bad('xcad-cad/1\0/\0' + '18\0' + '0\0' + '1\0' + 'NOEQUALS\0')).toThrow(/without a name/);
    expect(bad('xcad-cad/1\0/\0' + '18\0' + '0\0' + '0\0' + 'extra\0')).toThrow(/extra/);
    expect(bad('xcad-cad/1\0/\0' + '9999\0' + '0\0' + '0\0')).toThrow(/umask/);
    expect(() => encodeRequest({ cwd: '/', umask: 0, args: ['a\0b'], env: {} })).toThrow(ProtocolError);
    const reader = new FrameReader();
    reader.push(Buffer.from('z\0\0\0\0'));
    expect(() => reader.next()).toThrow(/unknown frame type/);
  });

  it('keeps the magic and frame types of client.c', () => {
    const c = readFileSync(CLIENT_SOURCE, 'utf8');
    expect(c).toContain('#define PROTOCOL_MAGIC "xcad-cad/1"');
    for (const t of ["'q'", "'a'", "'f'", "'o'", "'e'", "'x'"]) expect(c).toContain(t);
  });
});

describe('the warm-up', () => {
  it('draws its drawing to every format without a warning (a failing warm-up would warm nothing)', async () => {
    const { convertDrawing } = await import('@xcad/cad/convert');
    const { warmDrawing } = await import('./warm-up');
    for (const format of ['pdf', 'png', 'svg'] as const) {
      const r = await convertDrawing(warmDrawing(), { format, name: 'warm-up.dxf' });
      expect(r.warnings).toEqual([]);
      expect(r.outputs[0]?.data.length).toBeGreaterThan(10_000);
    }
    const svg = Buffer.from((await convertDrawing(warmDrawing(), { format: 'svg', name: 'warm-up.dxf' })).outputs[0]?.data ?? []).toString(
      'utf8',
    );
    // Its text (Chinese in the MTEXT and the TEXTs) and the block attributes are drawn.
    expect(svg).toContain('建筑平面图');
    expect(svg).toContain('门窗');
    // Every style's text, the dimensions' (from the block, and measured without one) and the Chinese set.
    expect(svg).toContain('建筑结构给排水');
    expect(svg.match(/ABCDEFGHIJKLMNOPQRSTUVWXYZ/g)?.length).toBe(8);
    expect(svg).toMatch(/>200</);
    expect(svg).toMatch(/>150</);
    // The writers and the PDF reader it warms take it too.
    const [{ convertToDxf }, { convertToDwg }, { pdfToDrawing }] = await Promise.all([
      import('@xcad/cad/dxf-writer'),
      import('@xcad/cad/dwg-writer'),
      import('@xcad/cad/pdf'),
    ]);
    expect((await convertToDxf(warmDrawing(), 'w.dxf', { version: '2018' })).bytes.length).toBeGreaterThan(10_000);
    expect((await convertToDwg(warmDrawing(), 'w.dxf', { version: '2018' })).bytes.length).toBeGreaterThan(10_000);
    const pdf = (await convertDrawing(warmDrawing(), { format: 'pdf', name: 'w.dxf' })).outputs[0]?.data as Uint8Array;
    expect((await pdfToDrawing(pdf)).drawing.modelSpace.length).toBeGreaterThan(100);
  }, 60_000);
});
