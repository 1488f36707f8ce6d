// Conversion benchmark (decisions 0019, 0023): the conversions against their peers, in the same run, on the corpus.
//  1. PDF -> DXF, per corpus PDF: the `cad convert in.pdf out.dxf` command as a user runs it
//     (packages/cad-cli/bin/cad, a command per file, as the peer is run; it hands its work to the
//     resident engine of decision 0024, started before the timing) against pstoedit (`pstoedit
//     -psarg "-dNEWPDF=false" -f "dxf_s:-mm" in.pdf out.dxf`); the median of the per-file ratios,
//     target <= 0.333 (ours at least 3x faster). Beside it the cold time (the same command with
//     CAD_SERVER=0: a Node process per file), the warm time (this process converting each file
//     through pdfToDrawing + writeDxf, as the conversion workers run), and the cold start-up split
//     (Node, the CLI's sources through tsx, pdf.js with its worker and the native canvas module
//     pdf.js loads).
//  2. DWG -> DXF, per corpus DWG (the large generated ones included): LibreDWG's own parse
//     (libredwg-web's dwg_read_file in a fresh instance, in this process) against ours: the
//     mapping of LibreDWG's objects to our drawing model (readDwgBytes in this process less its
//     parse) and writeDxf (2018); target: writing adds under 30% of the parse time (median of the
//     per-file ratios). Also our whole DWG -> DXF as the conversions run it (readDwg's reader
//     process + writeDxf) against the parse.
// Peer results (pstoedit's time, LibreDWG's parse time) are cached under bench/results/convert/ by
// file hash (`--fresh` recomputes them). Runs everything one at a time: the machine has two cores.
//  3. The conversion service's pool (decision 0027): each conversion as the API's workers run it, in a
//     process of their pool, against the same conversion warm in this process (PDFs to DXF, DXFs
//     under 1 MB to PDF): what running each conversion apart costs (not a target).
// Usage: npm run bench:convert [-- --fresh] [--only NAME] [--no-pdf] [--no-dwg] [--no-warm] [--no-pool]
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cadArgv, CLI, EngineTally, stopEngine } from './cad-command';
import { runProcess } from './run-process';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = process.env.CAD_CORPUS ?? path.resolve(root, '..', 'shared', 'corpus');
const RESULTS = path.join(root, 'bench', 'results', 'convert');
/** The cad.cjs entry, for the start-up split (CAD_NO_BUNDLE runs it from the sources). */
const ENTRY = path.join(root, 'packages', 'cad-cli', 'bin', 'cad.cjs');
const TIMEOUT_MS = 300_000;
const TARGET_PDF_RATIO = 1 / 3;
const TARGET_WRITE_SHARE = 0.3;
/** DWG phases are timed this many times (the fastest counts) for files under DWG_REPEAT_BELOW bytes. */
const DWG_REPEATS = 3;
const DWG_REPEAT_BELOW = 2 << 20;

const args = process.argv.slice(2);
const flag = (name: string): boolean => args.includes(`--${name}`);
const only = ((): string | undefined => {
  const i = args.indexOf('--only');
  return i >= 0 ? args[i + 1] : undefined;
})();

interface RunResult {
  ms: number;
  /** 'refused': ours exited 1 with a one-line reason (an image-only or blank PDF): an answer, not a crash. */
  status: 'ok' | 'crash' | 'timeout' | 'refused';
  error?: string;
}

interface PeerCache {
  pstoedit?: RunResult;
  /** LibreDWG's dwg_read_file, ms (null: it failed). */
  libredwgParseMs?: number | null;
}

/** Runs a command with a timeout; the whole process group is killed on timeout. */
async function run(cmd: string, cmdArgs: string[], env: NodeJS.ProcessEnv = process.env): Promise<RunResult> {
  const r = await runProcess(cmd, cmdArgs, { timeoutMs: TIMEOUT_MS, env, ignoreLine: /^cad: note:/ });
  return { ms: r.ms, status: r.status, ...(r.error ? { error: r.error } : {}) };
}

const sha1 = (bytes: Uint8Array): string => createHash('sha1').update(bytes).digest('hex').slice(0, 16);
const median = (xs: number[]): number => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const s3 = (ms: number): string => (Number.isFinite(ms) ? (ms / 1000).toFixed(3) : '-');
const r3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : '-');
const secs = (r: RunResult | undefined): string => (r ? `${s3(r.ms)}${r.status === 'ok' ? '' : ` ${r.status}`}` : '-');

function loadCache(key: string): PeerCache {
  const f = path.join(RESULTS, 'peers', `${key}.json`);
  if (flag('fresh') || !existsSync(f)) return {};
  return JSON.parse(readFileSync(f, 'utf8')) as PeerCache;
}
function saveCache(key: string, c: PeerCache): void {
  writeFileSync(path.join(RESULTS, 'peers', `${key}.json`), JSON.stringify(c, null, 1));
}

const corpusFiles = (sub: string, ext: RegExp): string[] =>
  existsSync(path.join(CORPUS, sub))
    ? readdirSync(path.join(CORPUS, sub))
        .filter((f) => ext.test(f) && (only === undefined || f.includes(only)))
        .sort()
    : [];

// ---- 1. PDF -> DXF -----------------------------------------------------------------------------------

const tally = new EngineTally();

/** `cad convert FILE OUT.dxf`: through the resident engine, or `cold` (CAD_SERVER=0). */
async function ours(file: string, out: string, cold = false): Promise<RunResult> {
  rmSync(out, { force: true });
  if (!cold) tally.sent++;
  const { cmd, argv, env } = cadArgv(['convert', file, out], cold);
  const r = await run(cmd, argv, env);
  if (r.status === 'crash' && /^exit 1: cad: /.test(r.error ?? '')) return { ...r, status: 'refused' };
  return r.status === 'ok' && !existsSync(out) ? { ...r, status: 'crash', error: 'no output' } : r;
}

async function pstoedit(file: string, key: string, cache: PeerCache): Promise<RunResult> {
  if (cache.pstoedit) return cache.pstoedit;
  const out = path.join(RESULTS, 'pstoedit', `${key}.dxf`);
  rmSync(out, { force: true });
  const r = await run('pstoedit', ['-q', '-psarg', '-dNEWPDF=false', '-f', 'dxf_s:-mm', file, out]);
  cache.pstoedit = r.status === 'ok' && !existsSync(out) ? { ...r, status: 'crash', error: 'no output' } : r;
  return cache.pstoedit;
}

/** The smallest of `n` runs of a command, ms. */
async function fastest(n: number, cmd: string, cmdArgs: string[], env?: NodeJS.ProcessEnv): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    const r = await run(cmd, cmdArgs, env);
    if (r.status !== 'ok') return NaN;
    best = Math.min(best, r.ms);
  }
  return best;
}

interface PdfRow {
  name: string;
  kb: number;
  ours: RunResult;
  cold?: RunResult;
  peer: RunResult;
  warmMs?: number;
}

async function pdfBench(): Promise<boolean> {
  const files = corpusFiles('pdf', /\.pdf$/i);
  if (!files.length) return true;
  console.log(
    `\nPDF -> DXF: ${files.length} corpus PDFs, one at a time (ours: ${path.relative(root, CLI)} convert IN OUT.dxf; cold: the same with CAD_SERVER=0; pstoedit -psarg -dNEWPDF=false -f dxf_s:-mm)`,
  );
  const rows: PdfRow[] = [];
  // One untimed cold run first: it builds what every later cold run reuses (bin/cad.cjs's bundle and code cache).
  await ours(path.join(CORPUS, 'pdf', files[0] as string), path.join(RESULTS, 'ours', 'warm-up.dxf'), true);
  await tally.begin();
  for (const name of files) {
    const file = path.join(CORPUS, 'pdf', name);
    const bytes = readFileSync(file);
    const key = sha1(bytes);
    const cache = loadCache(key);
    const mine = await ours(file, path.join(RESULTS, 'ours', `${name}.dxf`));
    const cold = flag('no-cold') ? undefined : await ours(file, path.join(RESULTS, 'ours', `${name}.cold.dxf`), true);
    const peer = await pstoedit(file, key, cache);
    saveCache(key, cache);
    rows.push({ name, kb: Math.round(bytes.length / 1024), ours: mine, ...(cold ? { cold } : {}), peer });
  }
  const inEngine = await tally.check();
  await stopEngine();

  // Warm: this process, each file through pdfToDrawing + writeDxf, after one untimed conversion.
  if (!flag('no-warm')) {
    const [{ pdfToDrawing }, { writeDxf }] = await Promise.all([
      import('../packages/cad/src/pdf/index'),
      import('../packages/cad/src/dxf-writer/writer'),
    ]);
    const once = async (name: string): Promise<number> => {
      const bytes = readFileSync(path.join(CORPUS, 'pdf', name));
      const t = performance.now();
      try {
        writeDxf((await pdfToDrawing(bytes)).drawing, { version: '2018' });
      } catch (e) {
        if ((e as Error).name !== 'CadReadError') throw e;
      }
      return performance.now() - t;
    };
    await once(files[0] as string);
    for (const row of rows) row.warmMs = await once(row.name);
  }

  console.log('| file | KB | ours s | pstoedit s | ours/pstoedit | ours cold s | cold/pstoedit | ours warm s | warm/pstoedit |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  const answered = (r: RunResult): boolean => r.status === 'ok' || r.status === 'refused';
  for (const r of rows) {
    const ratio = answered(r.ours) && r.peer.status === 'ok' ? r.ours.ms / r.peer.ms : NaN;
    const cold = r.cold && answered(r.cold) && r.peer.status === 'ok' ? r.cold.ms / r.peer.ms : NaN;
    const warm = r.warmMs !== undefined && r.peer.status === 'ok' ? r.warmMs / r.peer.ms : NaN;
    console.log(
      `| ${r.name} | ${r.kb} | ${secs(r.ours)} | ${secs(r.peer)} | ${r3(ratio)} | ${r.cold ? secs(r.cold) : '-'} | ${r3(cold)} | ${r.warmMs !== undefined ? s3(r.warmMs) : '-'} | ${r3(warm)} |`,
    );
  }
  const both = rows.filter((r) => answered(r.ours) && r.peer.status === 'ok');
  const ratio = median(both.map((r) => r.ours.ms / r.peer.ms));
  const coldRatio = median(both.map((r) => (r.cold?.ms ?? NaN) / r.peer.ms));
  const warmRatio = median(both.map((r) => (r.warmMs ?? NaN) / r.peer.ms));
  const failed = rows.filter((r) => !answered(r.ours));
  const refused = rows.filter((r) => r.ours.status === 'refused');
  console.log(
    `medians over the ${both.length} files both answered: ours ${s3(median(both.map((r) => r.ours.ms)))} s, cold ${s3(median(both.map((r) => r.cold?.ms ?? NaN)))} s, warm ${s3(median(both.map((r) => r.warmMs ?? NaN)))} s, pstoedit ${s3(median(both.map((r) => r.peer.ms)))} s`,
  );
  console.log(inEngine.line);
  if (refused.length)
    console.log(
      `ours refused (a one-line reason, exit 1): ${refused.map((r) => `${r.name} (${(r.ours.error ?? '').replace(/^exit 1: cad: /, '')})`).join('; ')}`,
    );
  if (failed.length) console.log(`ours FAILED: ${failed.map((r) => `${r.name}: ${r.ours.status} ${r.ours.error ?? ''}`).join('; ')}`);
  const isMet = ratio <= TARGET_PDF_RATIO && failed.length === 0 && inEngine.all;
  console.log(`median of ours/pstoedit per file ${r3(ratio)} (target <= ${r3(TARGET_PDF_RATIO)}): ${isMet ? 'met' : 'NOT met'}`);
  if (Number.isFinite(coldRatio))
    console.log(`cold (CAD_SERVER=0, a Node process per file; not the target): median of ours/pstoedit per file ${r3(coldRatio)}`);
  if (Number.isFinite(warmRatio))
    console.log(`warm (one process, as the conversion workers run; not the target): median of ours/pstoedit per file ${r3(warmRatio)}`);

  // Where a cold run's time goes: each part alone, the fastest of three runs.
  const nodeAlone = await fastest(3, process.execPath, ['-e', '0']);
  const cliSources = await fastest(3, process.execPath, [ENTRY, '--help'], { ...process.env, CAD_NO_BUNDLE: '1' });
  const pdfjs = await fastest(3, process.execPath, [
    '--input-type=module',
    '-e',
    "await Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import('pdfjs-dist/legacy/build/pdf.worker.mjs')]);",
  ]);
  const canvas = await fastest(3, process.execPath, ['-e', "require('@napi-rs/canvas')"]);
  const smallest = [...both].sort((a, b) => a.kb - b.kb)[0];
  console.log('\n| cold start-up, each part alone (fastest of 3) | s |');
  console.log('|---|---:|');
  console.log(`| node -e 0 | ${s3(nodeAlone)} |`);
  console.log(`| node + tsx + the CLI's sources (\`CAD_NO_BUNDLE=1 cad --help\`; PDF inputs run this way) | ${s3(cliSources)} |`);
  console.log(`| node + pdf.js and its worker (ES modules, 2.9 MB), which require @napi-rs/canvas | ${s3(pdfjs)} |`);
  console.log(`| node + @napi-rs/canvas alone (pdf.js loads it for DOMMatrix/Path2D polyfills) | ${s3(canvas)} |`);
  if (smallest?.cold)
    console.log(`| the whole cold run on the smallest PDF (${smallest.name}, ${smallest.kb} KB) | ${s3(smallest.cold.ms)} |`);
  if (smallest)
    console.log(
      `pstoedit takes ${s3(smallest.peer.ms)} s on the smallest PDF: Node's own start-up is ${Math.round((100 * nodeAlone) / smallest.peer.ms)}% of that, ` +
        `loading pdf.js ${Math.round((100 * (pdfjs - nodeAlone)) / smallest.peer.ms)}% more, the CLI's sources through tsx ${Math.round((100 * (cliSources - nodeAlone)) / smallest.peer.ms)}% more.`,
    );
  return isMet;
}

// ---- 2. DWG -> DXF -----------------------------------------------------------------------------------

interface DwgRow {
  name: string;
  kb: number;
  parseMs: number;
  mapMs: number;
  writeMs: number;
  /** readDwg (the reader process, as conversions run it) + writeDxf. */
  totalMs: number;
  error?: string;
}

async function dwgBench(): Promise<boolean> {
  const files = corpusFiles('dwg', /\.dwg$/i);
  if (!files.length) return true;
  const { loadWasm } = await import('../packages/cad-dwg/src/wasm');
  const { readDwgBytes } = await import('../packages/cad-dwg/src/read');
  const { readDwg } = await import('../packages/cad/src/dwg-client');
  const { writeDxf } = await import('../packages/cad/src/dxf-writer/writer');

  /** A fresh LibreDWG instance (as our reader makes one per file), then its dwg_read_file timed alone. */
  const parse = async (bytes: Uint8Array): Promise<{ instanceMs: number; parseMs: number } | null> => {
    const t0 = performance.now();
    const w = await loadWasm();
    const t1 = performance.now();
    w.FS.writeFile('/in.dwg', bytes);
    const t2 = performance.now();
    const r = w.dwg_read_file('/in.dwg');
    const t3 = performance.now();
    if (r.data) w.dwg_free(r.data);
    return r.data && r.error < 128 ? { instanceMs: t1 - t0, parseMs: t3 - t2 } : null;
  };
  // Compile LibreDWG's WebAssembly once, untimed (our reader's process does the same per run).
  const first = files[0];
  if (first) await parse(readFileSync(path.join(CORPUS, 'dwg', first)));

  console.log(
    `\nDWG -> DXF: ${files.length} corpus DWGs, one at a time; LibreDWG = libredwg-web's dwg_read_file, ours = its objects mapped to our model + writeDxf 2018`,
  );
  console.log(
    '| file | KB | LibreDWG parse s | ours: map s | ours: write s | write/parse | ours whole (reader process + write) s | whole/parse |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  const rows: DwgRow[] = [];
  for (const name of files) {
    const file = path.join(CORPUS, 'dwg', name);
    const bytes = readFileSync(file);
    const key = sha1(bytes);
    const cache = loadCache(key);
    const row: DwgRow = { name, kb: Math.round(bytes.length / 1024), parseMs: NaN, mapMs: NaN, writeMs: NaN, totalMs: NaN };
    // Each phase the fastest of a few runs (one for the multi-megabyte files): milliseconds are noisy.
    const runs = bytes.length < DWG_REPEAT_BELOW ? DWG_REPEATS : 1;
    try {
      let instanceMs = Infinity;
      let parseMs = Infinity;
      for (let i = 0; i < runs; i++) {
        const alone = await parse(bytes);
        if (!alone) break;
        instanceMs = Math.min(instanceMs, alone.instanceMs);
        parseMs = Math.min(parseMs, alone.parseMs);
      }
      if (cache.libredwgParseMs === undefined) cache.libredwgParseMs = Number.isFinite(parseMs) ? parseMs : null;
      saveCache(key, cache);
      row.parseMs = cache.libredwgParseMs ?? NaN;
      // Our reader in this process: a fresh instance, the same parse, then the mapping; the
      // mapping is what it takes beyond the instance and the parse timed alone.
      let readMs = Infinity;
      let drawing: Awaited<ReturnType<typeof readDwgBytes>>['drawing'] | undefined;
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        drawing = (await readDwgBytes(bytes)).drawing;
        readMs = Math.min(readMs, performance.now() - t0);
      }
      if (Number.isFinite(parseMs)) row.mapMs = Math.max(0, readMs - instanceMs - parseMs);
      for (let i = 0; i < runs && drawing; i++) {
        const t1 = performance.now();
        writeDxf(drawing, { version: '2018' });
        row.writeMs = Math.min(Number.isFinite(row.writeMs) ? row.writeMs : Infinity, performance.now() - t1);
      }
      // The whole conversion as the workers run it: the reader process, then the writer.
      const t2 = performance.now();
      const viaChild = await readDwg(bytes);
      writeDxf(viaChild.drawing, { version: '2018' });
      row.totalMs = performance.now() - t2;
    } catch (e) {
      row.error = `${(e as Error).name}: ${(e as Error).message.split('\n')[0]}`;
    }
    rows.push(row);
    console.log(
      `| ${name} | ${row.kb} | ${s3(row.parseMs)} | ${s3(row.mapMs)} | ${s3(row.writeMs)} | ${r3(row.writeMs / row.parseMs)} | ${s3(row.totalMs)} | ${r3(row.totalMs / row.parseMs)} |${row.error ? ` ${row.error}` : ''}`,
    );
  }
  const ok = rows.filter((r) => !r.error && Number.isFinite(r.parseMs));
  const share = median(ok.map((r) => r.writeMs / r.parseMs));
  const mapShare = median(ok.map((r) => (r.mapMs + r.writeMs) / r.parseMs));
  const whole = median(ok.map((r) => r.totalMs / r.parseMs));
  const sum = (pick: (r: DwgRow) => number): number => ok.reduce((t, r) => t + pick(r), 0);
  console.log(
    `per-phase totals over ${ok.length} files: LibreDWG parse ${s3(sum((r) => r.parseMs))} s, map to model ${s3(sum((r) => r.mapMs))} s, write ${s3(sum((r) => r.writeMs))} s; whole conversions ${s3(sum((r) => r.totalMs))} s`,
  );
  const bad = rows.filter((r) => r.error);
  if (bad.length)
    console.log(
      `refused or failed: ${bad.map((r) => `${r.name} (${statSync(path.join(CORPUS, 'dwg', r.name)).size >> 10} KB): ${r.error}`).join('; ')}`,
    );
  const isMet = share < TARGET_WRITE_SHARE;
  console.log(
    `writing adds (median of write/parse per file) ${r3(share)} of LibreDWG's parse time (target < ${TARGET_WRITE_SHARE}): ${isMet ? 'met' : 'NOT met'}`,
  );
  console.log(
    `map + write: median ${r3(mapShare)} of the parse; the whole conversion (reader process start-up included): median ${r3(whole)} x the parse`,
  );
  return isMet;
}

// ---- 3. The conversion service's pool ------------------------------------------------------------------

/**
 * Decision 0027: the conversion workers run each file in a process of their own (a warm pool, a memory
 * watchdog, IPC). Per file, the same conversion through ConversionWorkerPool as the API and `npm
 * run worker` run it, against the warm in-process time in this process: PDF -> DXF 2018 on the
 * corpus PDFs, DXF -> PDF on the corpus DXFs under 1 MB. Not a target: what the isolation costs.
 */
async function poolBench(): Promise<void> {
  const { ConversionWorkerPool } = await import('@xcad/api/conversion-pool');
  const [{ pdfToDrawing }, { writeDxf }, { convertDrawing }] = await Promise.all([
    import('../packages/cad/src/pdf/index'),
    import('../packages/cad/src/dxf-writer/writer'),
    import('../packages/cad/src/convert'),
  ]);
  const jobs = [
    ...corpusFiles('pdf', /\.pdf$/i).map((name) => ({ name, file: path.join(CORPUS, 'pdf', name), pdf: true })),
    ...corpusFiles('dxf', /\.dxf$/i)
      .filter((name) => statSync(path.join(CORPUS, 'dxf', name)).size < 1 << 20)
      .map((name) => ({ name, file: path.join(CORPUS, 'dxf', name), pdf: false })),
  ];
  if (!jobs.length) return;
  const pool = new ConversionWorkerPool({ memoryMb: 1536, timeoutMs: TIMEOUT_MS, idleProcesses: 1 });
  const inPool = async (job: (typeof jobs)[number]): Promise<number> => {
    const input = new Uint8Array(readFileSync(job.file));
    const t = performance.now();
    await pool.convert(
      job.pdf
        ? { input, options: { format: 'pdf' }, cad: { format: 'dxf', version: '2018', fromPdf: true } }
        : { input, options: { format: 'pdf', name: job.name } },
    );
    return performance.now() - t;
  };
  const inProcess = async (job: (typeof jobs)[number]): Promise<number> => {
    const input = new Uint8Array(readFileSync(job.file));
    const t = performance.now();
    try {
      if (job.pdf) writeDxf((await pdfToDrawing(input)).drawing, { version: '2018' });
      else await convertDrawing(input, { format: 'pdf', name: job.name });
    } catch (e) {
      if (!['CadReadError', 'CadConvertError', 'CadLimitError'].includes((e as Error).name)) throw e;
    }
    return performance.now() - t;
  };
  try {
    // Untimed: the pool's process loads the engine, this process warms the same code.
    await inPool(jobs[0] as (typeof jobs)[number]);
    await inProcess(jobs[0] as (typeof jobs)[number]);
    const rows: { name: string; pool: number; warm: number }[] = [];
    for (const job of jobs) rows.push({ name: job.name, pool: await inPool(job), warm: await inProcess(job) });
    console.log(`
The conversion pool (a process per conversion, kept warm): ${jobs.length} corpus files (PDF -> DXF, DXF < 1 MB -> PDF), one at a time`);
    console.log('| file | pool s | in-process warm s | pool/warm |');
    console.log('|---|---:|---:|---:|');
    for (const r of rows) console.log(`| ${r.name} | ${s3(r.pool)} | ${s3(r.warm)} | ${r3(r.pool / r.warm)} |`);
    const total = (pick: (r: (typeof rows)[number]) => number): number => rows.reduce((t, r) => t + pick(r), 0);
    console.log(
      `pool: median per file ${s3(median(rows.map((r) => r.pool)))} s against ${s3(median(rows.map((r) => r.warm)))} s in-process; median of pool/warm per file ${r3(median(rows.map((r) => r.pool / r.warm)))}, totals ${s3(total((r) => r.pool))} s against ${s3(total((r) => r.warm))} s (not a target: what running each conversion apart costs)`,
    );
  } finally {
    await pool.close();
  }
}

export async function runConvertBench(): Promise<boolean> {
  if (!existsSync(CORPUS)) {
    console.log(`No corpus at ${CORPUS}: nothing to measure (set CAD_CORPUS).`);
    return true;
  }
  for (const d of ['peers', 'ours', 'pstoedit']) mkdirSync(path.join(RESULTS, d), { recursive: true });
  const pdfMet = flag('no-pdf') ? true : await pdfBench();
  const dwgMet = flag('no-dwg') ? true : await dwgBench();
  if (!flag('no-pool')) await poolBench();
  const isMet = pdfMet && dwgMet;
  console.log(`\nconversion targets: ${isMet ? 'met' : 'NOT met'}`);
  return isMet;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await runConvertBench();
