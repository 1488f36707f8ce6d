// Hostile-drawing benchmark (decision 0027): what hostile drawings do to a conversion worker's memory and time. A worker
// process (bench/hostile-worker.ts: the conversion pool as the API and `npm run worker` run it,
// with the service's default limits, CONVERSION_MEMORY_MB 1536 and CONVERSION_TIMEOUT_SECONDS
// 180) converts a real drawing first (its baseline), then each hostile file made in memory
// (packages/cad/src/hostile.testing.ts), one at a time. For each: the outcome and its time, the
// peak resident memory during the conversion and the memory 2 s after it, of the worker process
// itself and of the worker with every process under it (sampled from /proc every 20 ms), beside
// the baseline measured in the same run.
// Usage: npm run bench:hostile [-- --only NAME]
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { CadTarget, WorkerConvertOptions } from '@xcad/api/conversion-worker';
import {
  denseHatchDxf,
  doublingBlocksDxf,
  flateBombPdf,
  manyPagesPdf,
  minsertBombDxf,
  nestedMinsertDxf,
  splineDxf,
} from '@xcad/cad/testing';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = path.join(root, 'packages', 'cad', 'test-fixtures');
const SAMPLE_MS = 20;
const SETTLE_MS = 2_000;
const MB = 1024 * 1024;

const args = process.argv.slice(2);
const only = ((): string | undefined => {
  const i = args.indexOf('--only');
  return i >= 0 ? args[i + 1] : undefined;
})();

interface Case {
  name: string;
  bytes: () => Uint8Array;
  options: WorkerConvertOptions;
  cad?: CadTarget;
}

const pdf2dxf: CadTarget = { format: 'dxf', version: '2018', fromPdf: true };
const CASES: Case[] = [
  { name: 'PDF, content inflating to 1 GiB', bytes: () => flateBombPdf(2 ** 30), options: { format: 'pdf' }, cad: pdf2dxf },
  { name: 'PDF, content inflating to 3 GiB', bytes: () => flateBombPdf(3 * 2 ** 30), options: { format: 'pdf' }, cad: pdf2dxf },
  { name: 'PDF of 20,000 pages', bytes: () => manyPagesPdf(20_000), options: { format: 'pdf' }, cad: pdf2dxf },
  { name: 'DXF, MINSERT of 10^7 copies, to PDF', bytes: () => minsertBombDxf(10_000, 1_000), options: { format: 'pdf' } },
  { name: 'DXF, nested MINSERTs (10^16), to PDF', bytes: () => nestedMinsertDxf(4, 100), options: { format: 'pdf' } },
  { name: 'DXF, blocks doubling 23 deep, to PDF', bytes: () => doublingBlocksDxf(23), options: { format: 'pdf' } },
  { name: 'DXF, hatch of 10^8 pattern lines, to PDF', bytes: () => denseHatchDxf(1_000_000, 0.01), options: { format: 'pdf' } },
  { name: 'DXF, spline of degree 1,000, to PDF', bytes: () => splineDxf(2_000, 1_000), options: { format: 'pdf' } },
  { name: 'DXF to a 10,000 x 10,000 px PNG', bytes: () => minsertBombDxf(1, 1), options: { format: 'png', width: 10_000 } },
];

/** Resident memory (VmRSS) and its peak (VmHWM) of a process, in bytes; undefined once it is gone. */
function memoryOf(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return undefined;
  }
}

/** The process and every process under it (from each process's parent in /proc/PID/stat). */
function treeOf(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const siblings = parents.get(ppid) ?? [];
      siblings.push(Number(entry));
      parents.set(ppid, siblings);
    } catch {
      // Gone meanwhile.
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(parents.get(tree[i] as number) ?? []));
  return tree;
}

const treeRss = (pid: number): number => treeOf(pid).reduce((sum, each) => sum + (memoryOf(each)?.rss ?? 0), 0);

const mb = (bytes: number): string => (bytes / MB).toFixed(0);

interface Answer {
  ok: boolean;
  ms: number;
  outputBytes?: number;
  failure?: string;
  detail?: string;
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'xcad-hostile-'));
  const worker = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench', 'hostile-worker.ts')], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const answers = createInterface({ input: worker.stdout })[Symbol.asyncIterator]();
  const pid = worker.pid as number;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** Sends one request; samples the worker and its tree until the answer comes. */
  const convert = async (file: string, options: WorkerConvertOptions, cad?: CadTarget) => {
    let workerPeak = 0;
    let treePeak = 0;
    const timer = setInterval(() => {
      workerPeak = Math.max(workerPeak, memoryOf(pid)?.rss ?? 0);
      treePeak = Math.max(treePeak, treeRss(pid));
    }, SAMPLE_MS);
    worker.stdin.write(`${JSON.stringify({ file, options, ...(cad ? { cad } : {}) })}\n`);
    const next = await answers.next();
    clearInterval(timer);
    const answer = JSON.parse(String(next.value)) as Answer;
    await sleep(SETTLE_MS);
    return { answer, workerPeak, treePeak, workerAfter: memoryOf(pid)?.rss ?? 0, treeAfter: treeRss(pid) };
  };

  try {
    const warm = await convert(path.join(FIXTURES, 'ezdxf_hatches_1.dxf'), { format: 'pdf' });
    if (!warm.answer.ok) throw new Error(`the warm-up conversion failed: ${warm.answer.failure ?? ''} ${warm.answer.detail ?? ''}`);
    const baseline = { worker: warm.workerAfter, tree: warm.treeAfter };
    console.log(
      `\nHostile files through the conversion pool (CONVERSION_MEMORY_MB ${process.env['CONVERSION_MEMORY_MB'] ?? 1536}, CONVERSION_TIMEOUT_SECONDS ${process.env['CONVERSION_TIMEOUT_SECONDS'] ?? 180})`,
    );
    console.log(`baseline after a real drawing: worker ${mb(baseline.worker)} MB, worker and its children ${mb(baseline.tree)} MB\n`);
    console.log('| file | input KB | outcome | s | worker peak MB | worker after MB | tree peak MB | tree after MB |');
    console.log('|---|---:|---|---:|---:|---:|---:|---:|');
    for (const c of CASES) {
      if (only !== undefined && !c.name.includes(only)) continue;
      const file = path.join(scratch, 'input');
      const bytes = c.bytes();
      writeFileSync(file, bytes);
      const r = await convert(file, c.options, c.cad);
      const outcome = r.answer.ok
        ? `converted (${mb(r.answer.outputBytes ?? 0)} MB out)`
        : `${r.answer.failure ?? ''}: ${(r.answer.detail ?? '').slice(0, 90)}`;
      console.log(
        `| ${c.name} | ${(bytes.length / 1024).toFixed(1)} | ${outcome.replace(/\|/g, '/')} | ${(r.answer.ms / 1000).toFixed(1)} | ${mb(r.workerPeak)} | ${mb(r.workerAfter)} | ${mb(r.treePeak)} | ${mb(r.treeAfter)} |`,
      );
    }
    const hwm = memoryOf(pid)?.hwm ?? 0;
    console.log(
      `\nthe worker's own peak over the run (VmHWM): ${mb(hwm)} MB, ${(hwm / Math.max(1, baseline.worker)).toFixed(2)} x its baseline`,
    );
  } finally {
    worker.stdin.end();
    worker.kill('SIGTERM');
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
