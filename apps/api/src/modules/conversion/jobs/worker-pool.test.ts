import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { flateBombPdf, nestedMinsertDxf } from '@xcad/cad/testing';
import { ConversionWorkerPool } from './worker-pool';
import type { ConversionOutcome, WorkerConvertOptions } from './worker-protocol';

// Decisions 0019 and 0027: conversions in processes of their own with the real engine (packages/cad, its
// native canvas, its fonts and its DWG reader process), and the limits that keep a hostile drawing
// from taking the API down: time, heap, resident memory (the process and what it started),
// crashes, and cancelling; a hostile drawing stopped by the engine's budgets, and its memory
// given back with its process.

const FIXTURES = new URL('../../../../../../packages/cad/test-fixtures/', import.meta.url);
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(name, FIXTURES)));
const MISBEHAVING = new URL('./worker.testing.ts', import.meta.url);
const scratch = mkdtempSync(path.join(tmpdir(), 'xcad-pool-'));

const pools: ConversionWorkerPool[] = [];
function pool(options: Partial<ConstructorParameters<typeof ConversionWorkerPool>[0]> = {}): ConversionWorkerPool {
  const created = new ConversionWorkerPool({ memoryMb: 512, timeoutMs: 60_000, idleProcesses: 1, ...options });
  pools.push(created);
  return created;
}

afterAll(async () => {
  await Promise.all(pools.map((created) => created.close()));
  rmSync(scratch, { recursive: true, force: true });
});

const text = (value: string): Uint8Array => new TextEncoder().encode(value);

function outputsOf(outcome: ConversionOutcome): Uint8Array[] {
  if (!outcome.ok) throw new Error(`conversion failed: ${outcome.failure}: ${outcome.detail}`);
  return outcome.outputs.map((output) => output.data);
}

/** Pages of a PDF and the first page's MediaBox [w, h] in points. */
function pdfPages(pdf: Uint8Array): { pages: number; mediaBox: number[] } {
  const source = Buffer.from(pdf).toString('latin1');
  const pages = source.match(/\/Type \/Page\b(?!s)/g)?.length ?? 0;
  const box = /\/MediaBox \[([\d.\s-]+)\]/.exec(source)?.[1]?.trim().split(/\s+/).map(Number) ?? [];
  return { pages, mediaBox: box.slice(2) };
}

/** A PNG's width and height from its IHDR chunk. */
function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = Buffer.from(png);
  expect(view.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(view.toString('latin1', 12, 16)).toBe('IHDR');
  return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Processes as `ps` lists them (zombies included): pid, process group, state and command line. */
function processes(filter: string[]): Array<{ pid: number; pgid: number; stat: string; args: string }> {
  try {
    return execFileSync('ps', ['-o', 'pid=,pgid=,stat=,args=', ...filter], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [pid = '', pgid = '', stat = '', ...args] = line.trim().split(/\s+/);
        return { pid: Number(pid), pgid: Number(pgid), stat, args: args.join(' ') };
      });
  } catch {
    return []; // ps exits 1 when there is none
  }
}

/** This process's child processes. */
const childProcesses = () => processes(['--ppid', String(process.pid)]);
/** The live (not zombie) members of a process group: a conversion process and what it started. */
const liveInGroup = (pgid: number) => processes(['-e']).filter((p) => p.pgid === pgid && !p.stat.startsWith('Z'));
/** The conversion processes of this test process's pools. */
const conversionProcesses = () => childProcesses().filter((p) => p.args.includes('worker-boot.mjs'));

/** Resident memory of a process in MB, from /proc. */
function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1024;
}

async function waitFor(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the real engine in worker threads', { timeout: 60_000 }, () => {
  const engine = pool({ idleProcesses: 1 });
  const convert = (name: string, options: WorkerConvertOptions) => engine.convert({ input: fixture(name), options: { name, ...options } });

  it('converts a DXF to an A3 landscape PDF of one page', async () => {
    const [pdf] = outputsOf(await convert('ezdxf_hatches_1.dxf', { format: 'pdf', paper: 'A3', orientation: 'landscape' }));
    expect(Buffer.from(pdf ?? []).toString('latin1', 0, 5)).toBe('%PDF-');
    const { pages, mediaBox } = pdfPages(pdf ?? new Uint8Array());
    expect(pages).toBe(1);
    expect(mediaBox.map(Math.round)).toEqual([1191, 842]);
  });

  it('converts a DWG (read by its own process) to PDF, every layout a page', async () => {
    const [pdf] = outputsOf(await convert('acs_sample_AC1015.dwg', { format: 'pdf', allLayouts: true }));
    expect(Buffer.from(pdf ?? []).toString('latin1', 0, 5)).toBe('%PDF-');
    expect(pdfPages(pdf ?? new Uint8Array()).pages).toBeGreaterThanOrEqual(1);
    expect(pdf?.length).toBeGreaterThan(5_000);
  });

  it('draws a DXF with Chinese text to a PNG of the width asked for', async () => {
    const [png] = outputsOf(await convert('gen_zh_r2018_utf8.dxf', { format: 'png', width: 900 }));
    const { width, height } = pngSize(png ?? new Uint8Array());
    expect(width).toBe(900);
    expect(height).toBeGreaterThan(50);
  });

  it('draws a DWG to a PNG', async () => {
    const [png] = outputsOf(await convert('acs_sample_AC1015.dwg', { format: 'png', width: 640 }));
    expect(pngSize(png ?? new Uint8Array()).width).toBe(640);
  });

  it('draws every layout of a drawing to its own image', async () => {
    const outcome = await convert('ezdxf_VP4.dxf', { format: 'png', allLayouts: true, width: 400 });
    const names = outcome.ok ? outcome.outputs.map((output) => output.layout) : [];
    expect(names).toEqual(['Model', 'Layout1']);
    for (const png of outputsOf(outcome)) expect(pngSize(png).width).toBe(400);
  });

  it('refuses what is not a drawing, an empty one, an unknown layout; the process stays usable', async () => {
    expect(await engine.convert({ input: text('这不是图纸'), options: { format: 'pdf' } })).toMatchObject({
      ok: false,
      failure: 'unreadable',
    });
    expect(
      await engine.convert({ input: text('  0\nSECTION\n  2\nENTITIES\n  0\nENDSEC\n  0\nEOF\n'), options: { format: 'pdf' } }),
    ).toMatchObject({
      ok: false,
      failure: 'empty',
    });
    expect(await convert('ezdxf_VP4.dxf', { format: 'pdf', layout: '不存在的布局' })).toMatchObject({
      ok: false,
      failure: 'unknown-layout',
    });
    expect(outputsOf(await convert('skydxf_splines.dxf', { format: 'pdf' }))).toHaveLength(1);
  });

  it('stops a conversion that takes longer than the limit, DWG reader included', async () => {
    const strict = pool({ timeoutMs: 150 });
    // Loaded first, so that the limit falls on the conversion and not on loading the engine.
    expect(await strict.convert({ input: text('not a drawing'), options: { format: 'pdf' } })).toMatchObject({ failure: 'unreadable' });
    const outcome = strict.convert({ input: fixture('acs_sample_AC1015.dwg'), options: { format: 'pdf', dwgTimeoutMs: 60_000 } });
    // The DWG reader runs in the process group of one of this process's conversion processes.
    let group = 0;
    await waitFor(() => {
      const ours = new Set(conversionProcesses().map((p) => p.pid));
      group = processes(['-e']).find((p) => p.args.includes('cad-dwg') && ours.has(p.pgid) && !p.stat.startsWith('Z'))?.pgid ?? 0;
      return group > 0;
    }, 5_000);
    expect(await outcome).toMatchObject({ ok: false, failure: 'timeout' });
    // The conversion process and its DWG reader are gone, the conversion process reaped.
    await waitFor(() => liveInGroup(group).length === 0 && !childProcesses().some((p) => p.pid === group), 5_000);
  });
});

describe('the budgets of a hostile drawing, in a process of its own', { timeout: 60_000 }, () => {
  const hostile = pool({ idleProcesses: 1, memoryMb: 1536 });

  it('fails a PDF whose content inflates to 1 GiB with its reason; its process is replaced and this one holds none of it', async () => {
    const others = new Set(conversionProcesses().map((p) => p.pid));
    expect(outputsOf(await hostile.convert({ input: fixture('ezdxf_hatches_1.dxf'), options: { format: 'pdf' } }))).toHaveLength(1);
    const warm = conversionProcesses().find((p) => !others.has(p.pid));
    expect(warm).toBeDefined();
    const baseline = residentMb(process.pid);
    const outcome = await hostile.convert({
      input: flateBombPdf(2 ** 30),
      options: { format: 'pdf' },
      cad: { format: 'dxf', version: '2018', fromPdf: true },
    });
    expect(outcome).toMatchObject({ ok: false, failure: 'limit', limit: 'pdfDecodedBytes' });
    expect(residentMb(process.pid)).toBeLessThan(baseline + 100);
    await waitFor(() => liveInGroup(warm?.pid ?? 0).length === 0);
    // A fresh process takes the next drawing.
    expect(
      outputsOf(await hostile.convert({ input: fixture('ezdxf_hatches_1.dxf'), options: { format: 'png', width: 200 } })),
    ).toHaveLength(1);
  });

  it('fails nested MINSERTs (10^16 copies in 500 bytes) on the entities budget', async () => {
    expect(await hostile.convert({ input: nestedMinsertDxf(4, 100), options: { format: 'png' } })).toMatchObject({
      ok: false,
      failure: 'limit',
      limit: 'entities',
    });
  });

  it('refuses an image over 100 megapixels on the pixels budget', async () => {
    expect(await hostile.convert({ input: fixture('ezdxf_hatches_1.dxf'), options: { format: 'png', dpi: 2400 } })).toMatchObject({
      ok: false,
      failure: 'limit',
      limit: 'pixels',
    });
  });
});

describe('conversion processes that misbehave', { timeout: 30_000 }, () => {
  const bad = pool({ entry: MISBEHAVING, timeoutMs: 1_500, memoryMb: 192 });
  const run = (command: string, signal?: AbortSignal) => bad.convert({ input: text(command), options: { format: 'pdf' } }, signal);

  it('a process that exits or throws is reported as crashed, and the next conversion gets a new process', async () => {
    expect(await run('CRASH')).toMatchObject({ ok: false, failure: 'crashed' });
    expect(await run('THROW')).toMatchObject({ ok: false, failure: 'crashed' });
    expect(outputsOf(await run('ECHO'))).toEqual([text('ECHO')]);
  });

  it('a process stuck in a loop is killed at the time limit', async () => {
    const started = Date.now();
    expect(await run('HANG')).toMatchObject({ ok: false, failure: 'timeout' });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(outputsOf(await run('ECHO:10'))).toHaveLength(1);
  });

  it('a process that exhausts its heap is reported as out of memory', async () => {
    // A time limit far above the seconds a busy machine takes to fill the heap, so only memory can end it.
    const capped = pool({ entry: MISBEHAVING, timeoutMs: 20_000, memoryMb: 192 });
    expect(await capped.convert({ input: text('HOG'), options: { format: 'pdf' } })).toMatchObject({ ok: false, failure: 'memory' });
  });

  it('a process whose resident memory outside the heap passes the cap is killed as out of memory', async () => {
    const capped = pool({ entry: MISBEHAVING, timeoutMs: 20_000, memoryMb: 200 });
    const outcome = await capped.convert({ input: text('BALLOON:1000'), options: { format: 'pdf' } });
    expect(outcome).toMatchObject({ ok: false, failure: 'memory' });
    expect(outcome.ok ? '' : outcome.detail).toMatch(/resident memory, over its 200 MB/);
  });

  it('the memory of the processes a conversion starts counts, and they are killed with it', async () => {
    const capped = pool({ entry: MISBEHAVING, timeoutMs: 20_000, memoryMb: 200 });
    expect(await capped.convert({ input: text('SPAWN-BALLOON:1000'), options: { format: 'pdf' } })).toMatchObject({
      ok: false,
      failure: 'memory',
    });
    await waitFor(() => !processes(['-e']).some((p) => p.args.includes('Buffer.alloc(1 << 20, 1)') && !p.stat.startsWith('Z')), 5_000);
  });

  it('cancelling kills the process and the processes it started', async () => {
    const pidFile = path.join(scratch, 'child.pid');
    const controller = new AbortController();
    const outcome = run(`SPAWN:${pidFile}`, controller.signal);
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(isAlive(pid)).toBe(true);
    controller.abort('cancel');
    expect(await outcome).toEqual({ ok: false, failure: 'aborted', detail: 'cancel' });
    await waitFor(() => !isAlive(pid), 5_000);
  });

  it('closing the pool ends conversions under way', async () => {
    const closing = pool({ entry: MISBEHAVING, timeoutMs: 20_000 });
    const outcome = closing.convert({ input: text('ECHO:15000'), options: { format: 'pdf' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await closing.close();
    expect(await outcome).toMatchObject({ ok: false, failure: 'aborted' });
    expect(await closing.convert({ input: text('ECHO'), options: { format: 'pdf' } })).toMatchObject({ ok: false, failure: 'aborted' });
  });
});
