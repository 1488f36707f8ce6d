/**
 * The `cad` command as a user runs it (bin/cad) with the real resident engine (decision 0024):
 * every command the engine runs gives what the same command gives in a process of its own
 * (CAD_SERVER=0), byte for byte. The engine has a socket of its own here (CAD_SERVER_SOCKET), and
 * `cad server status` tells which commands it ran.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CAD = fileURLToPath(new URL('../../bin/cad', import.meta.url));
const FIX = fileURLToPath(new URL('../../../cad/test-fixtures/', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'cad-engine-'));
const SOCKET = join(tmp, 'engine', 'engine.sock');
mkdirSync(join(tmp, 'engine'), { mode: 0o700 });
const ENV: NodeJS.ProcessEnv = { ...process.env, CAD_SERVER_SOCKET: SOCKET, CAD_SERVER_IDLE: '180', CAD_DEBUG: '' };
delete ENV['CAD_SERVER'];
delete ENV['CAD_SERVER_FALLBACK'];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cad(args: string[], opts: { cold?: boolean; cwd?: string; env?: Record<string, string> } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const env = { ...ENV, ...(opts.cold ? { CAD_SERVER: '0' } : {}), ...opts.env };
    execFile(CAD, args, { env, cwd: opts.cwd ?? tmp, encoding: 'utf8', timeout: 120_000, maxBuffer: 32 << 20 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

async function commandsRun(): Promise<number> {
  const r = await cad(['server', 'status']);
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { commands: number }).commands;
}

/** A PDF without its creation date and file id, the only bytes that differ between two runs. */
const pdfBody = (file: string): string =>
  readFileSync(file, 'latin1')
    .replace(/\(D:\d{14}[^)]*\)/g, '')
    .replace(/\/ID \[[^\]]*\]/g, '');

const GBK = join(FIX, 'gen_zh_r2000_gbk.dxf');
const DOOR = join(FIX, 'ezdxf_wipeout_door.dxf');
const DWG = join(FIX, 'acs_sample_AC1015.dwg');
const out = (name: string): string => join(tmp, name);

beforeAll(async () => {
  const started = await cad(['server', 'start']);
  expect(started.stderr).toBe('');
  expect(started.stdout).toMatch(/^the resident engine is running \(pid \d+\)\n$/);
  expect(started.code).toBe(0);
}, 180_000);

afterAll(async () => {
  await cad(['server', 'stop']);
  rmSync(tmp, { recursive: true, force: true });
}, 30_000);

describe('bin/cad with the resident engine', () => {
  it('converts to PDF, PNG and SVG in the engine, as a process of its own would', async () => {
    const before = await commandsRun();
    const runs: [string, string[]][] = [
      ['pdf', ['convert', GBK, out('zh.pdf'), '--paper', 'A3', '--color', 'mono']],
      ['png', ['convert', GBK, out('zh.png'), '--width', '400']],
      ['svg', ['convert', DOOR, out('door.svg')]],
      ['dwg', ['convert', DWG, out('acs.png'), '--width', '300']],
    ];
    const engine: Run[] = [];
    for (const [, args] of runs) engine.push(await cad(args));
    expect(await commandsRun()).toBe(before + runs.length + 1);
    const results = new Map<string, string | Buffer>();
    for (const [kind, args] of runs) {
      const file = args[2] as string;
      results.set(kind, kind === 'pdf' ? pdfBody(file) : readFileSync(file));
      rmSync(file);
    }
    for (const [i, [kind, args]] of runs.entries()) {
      const cold = await cad(args, { cold: true });
      expect(engine[i]).toEqual(cold);
      const file = args[2] as string;
      expect(kind === 'pdf' ? pdfBody(file) : readFileSync(file)).toEqual(results.get(kind));
    }
    expect(engine[0]?.stdout).toMatch(/^wrote .*zh\.pdf \(layout Model; \d+/);
  }, 120_000);

  it('prints the same info and the same errors, with the same exit status', async () => {
    const before = await commandsRun();
    const cases = [
      ['info', GBK],
      ['convert', join(tmp, 'missing.dxf'), out('x.png')],
      ['convert', GBK, out('x.png'), '--width', 'wide'],
      ['convert', GBK, out('x.png'), '--layout', 'No such layout'],
      ['convert', DOOR],
      ['frobnicate'],
    ];
    for (const args of cases) {
      const engine = await cad(args);
      const cold = await cad(args, { cold: true });
      expect(engine).toEqual(cold);
    }
    expect(await commandsRun()).toBe(before + cases.length + 1);
    const info = JSON.parse((await cad(['info', GBK])).stdout) as { encoding: string; layouts: unknown[] };
    expect(info.encoding).toBe('gbk');
  }, 120_000);

  it("resolves relative paths in the user's folder and reads CAD_FONT_DIR per command", async () => {
    const work = mkdtempSync(join(tmp, 'work-'));
    copyFileSync(DOOR, join(work, 'door.dxf'));
    const r = await cad(['convert', 'door.dxf', 'door.png', '--width', '200'], { cwd: work });
    expect(r.code).toBe(0);
    expect(existsSync(join(work, 'door.png'))).toBe(true);
    // The drawing names arial.ttf: substituted without it, found in a font folder given for one command.
    const fonts = mkdtempSync(join(tmp, 'fonts-'));
    copyFileSync('/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf', join(fonts, 'arial.ttf'));
    // Arial stands in as Liberation Sans (no notice), but cad info lists every font substituted.
    const missing = (r: Run): string[] =>
      (JSON.parse(r.stdout) as { substitutedFonts: { requested: string }[] }).substitutedFonts.map((f) => f.requested);
    expect(missing(await cad(['info', 'door.dxf'], { cwd: work }))).toContain('arial.ttf');
    expect(missing(await cad(['info', 'door.dxf'], { cwd: work, env: { CAD_FONT_DIR: fonts } }))).not.toContain('arial.ttf');
    expect(missing(await cad(['info', 'door.dxf'], { cwd: work }))).toContain('arial.ttf');
  }, 60_000);

  it('answers status and stop, and the next command runs in a process of its own', async () => {
    const status = JSON.parse((await cad(['server', 'status'])).stdout) as { pid: number; socket: string; rssMb: number };
    expect(status.socket).toBe(SOCKET);
    expect(status.rssMb).toBeGreaterThan(20);
    expect((await cad(['server', 'stop'])).stdout).toBe(`stopped the resident engine (pid ${status.pid})\n`);
    for (let i = 0; i < 50 && existsSync(SOCKET); i++) await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(SOCKET)).toBe(false);
    const after = await cad(['server', 'status'], { env: { CAD_SERVER: '0' } });
    expect(after).toEqual({ code: 3, stdout: `no resident engine is running (socket ${SOCKET})\n`, stderr: '' });
    // A command now runs cold and starts an engine for the next ones.
    expect((await cad(['convert', GBK, out('again.png'), '--width', '100'])).code).toBe(0);
    let back = -1;
    for (let i = 0; i < 300 && back < 0; i++) {
      const r = await cad(['server', 'status'], { env: { CAD_SERVER: '0' } });
      if (r.code === 0) back = (JSON.parse(r.stdout) as { commands: number }).commands;
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(back).toBeGreaterThanOrEqual(0);
  }, 120_000);
});
