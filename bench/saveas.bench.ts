// Save-as sweep (decisions 0023, 0038): does converting a drawing to another DWG or DXF version keep it?
// Every corpus DWG and DXF (../shared/corpus, or $CAD_CORPUS; names from its MANIFEST.tsv; the
// gen_large_* files, tiled copies of two corpus drawings, only with --large) is converted to every
// version the tools offer (the protocol's cadVersionsFor('dwg') and cadVersionsFor('dxf')) as the
// site's conversion workers convert (convertToDwg / convertToDxf on the file's bytes). Each result:
//  1. is read back by our reader (a DWG by LibreDWG, the reader program of decision 0016, whose error
//     codes must be none, or code 64 for 2004 and later: decision 0023);
//  2. is rendered by our engine, as is the original: the model and up to three paper layouts, each
//     1024 px wide in the original's view, and compared pixel for pixel by ink F1 (2-px tolerance;
//     the worst scene counts). Targets: median >= 0.99 per target
//     version, and >= 0.97 for every file;
//  3. has its entities counted by type (model, paper layouts, and the blocks the drawn entities refer
//     to) against the original's: a type whose count drops by more than the writer reported (its
//     `changes` once the engine has them, its `notes` before) is "lost, not reported". Target: none;
//  4. DXF only: is read by ezdxf (bench/saveas-ezdxf.py: read, audit, entities by type), whose counts
//     must equal our reader's, and drawn by ezdxf (bench/ezdxf-draw.py, model space; needs Debian's
//     python3-matplotlib, else the bench says it was not drawn): its picture against ezdxf's picture
//     of the original DXF (of the DXF 2018 result for a DWG input, which ezdxf cannot read), ink F1
//     cropped and aligned; the same targets as 2.
// One input at a time, all its targets in one worker process (bench/saveas-worker.ts); a conversion
// that passes TIMEOUT_MS (conversion, read-back and render) is killed and counted as a failure, as
// is any error: a failure is a row, never a crash. ezdxf's answers are cached under
// bench/results/saveas/ezdxf/ by the result's hash (`--fresh` recomputes them); all rows go to
// bench/results/saveas/rows.json, the pictures of scenes under 0.99 to bench/results/saveas/png/
// (a run of part of the corpus, --only or CAD_CORPUS, writes under bench/results/saveas/runs/ instead).
// Usage: npm run bench:saveas [-- --only NAME] [--large] [--fresh] [--no-ezdxf] [--tables-only]
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { compareInk } from '@xcad/cad/testing';
import { cadVersionsFor } from '@xcad/protocol';
import { decodePng, runPython } from './ezdxf-picture';
import { safe } from './saveas-check';
import {
  countsDisagree,
  lostUnreported,
  readbackProblems,
  F1_TOLERANCE,
  RENDER_WIDTH,
  reportedByType,
  SECOND_PAPER,
  type Counts,
  type Lost,
  type SourceEvent,
  type Target,
  type TargetRow,
  type WorkerRequest,
  WHITE,
} from './saveas-shared';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = process.env.CAD_CORPUS ?? path.resolve(root, '..', 'shared', 'corpus');
const RESULTS = path.join(root, 'bench', 'results', 'saveas');
const PYTHON = '/usr/bin/python3';
const EZDXF_CHECK = path.join(root, 'bench', 'saveas-ezdxf.py');
const EZDXF_SAME_VIEW = path.join(root, 'bench', 'saveas-ezdxf-draw.py');
const WORKER = path.join(root, 'bench', 'saveas-worker.ts');
/** One target: conversion, read-back and render of the result. */
const TIMEOUT_MS = 180_000;
/** Reading and rendering the original. */
const SOURCE_TIMEOUT_MS = 180_000;
const EZDXF_TIMEOUT_MS = 120_000;
const TARGET_MEDIAN = 0.99;
const TARGET_MIN = 0.97;

const args = process.argv.slice(2);
const flag = (name: string): boolean => args.includes(`--${name}`);
const only = ((): string | undefined => {
  const i = args.indexOf('--only');
  return i >= 0 ? args[i + 1] : undefined;
})();
/**
 * Where this run's rows, table and pictures go: bench/results/saveas/ for the whole corpus, a folder
 * of their own under runs/ for a part of it or another corpus (so a run beside the full one spoils nothing).
 */
const OUT =
  only === undefined && process.env.CAD_CORPUS === undefined
    ? RESULTS
    : path.join(
        RESULTS,
        'runs',
        [process.env.CAD_CORPUS ? path.basename(CORPUS) : 'corpus', only ?? 'all'].join('.').replace(/[^\w.-]+/g, '_'),
      );

const TARGETS: Target[] = [
  ...cadVersionsFor('dwg').map((version): Target => ({ format: 'dwg', version })),
  ...cadVersionsFor('dxf').map((version): Target => ({ format: 'dxf', version })),
];
const targetName = (t: Target): string => `${t.format.toUpperCase()} ${t.version}`;

interface Input {
  /** 'dxf/name.dxf' as the manifest names it. */
  name: string;
  file: string;
  licence: string;
  bytes: number;
}

interface EzdxfResult {
  ok: boolean;
  error?: string;
  version?: string;
  counts?: Counts;
  auditErrors?: number;
  auditFixes?: number;
  auditMessages?: string[];
}

interface Row {
  input: string;
  licence: string;
  target: Target;
  status: 'ok' | 'failed' | 'timeout' | 'refused';
  error?: string;
  f1: number | null;
  /** Per scene compared; `dropped`: a layout the writer reported leaving out, not compared. */
  scenes: { name: string; f1: number; missing?: true; dropped?: true; extentsMoved?: true; pageSetupChanged?: true }[];
  convertMs?: number;
  bytes?: number;
  /** What the writer reported: `changes` rendered "TYPE how N (outcome)", else its notes. */
  reported: string[];
  reportKind: 'changes' | 'notes';
  lost: Lost[];
  /** LibreDWG's error codes beyond the accepted one (DWG), or the read-back failure. */
  readbackProblems: string[];
  ezdxf?: EzdxfResult & { disagree?: string };
  /**
   * DXF only: ezdxf's picture of the result against ezdxf's picture of the original (a DXF input) or of
   * the input's DXF 2018 result (a DWG input, which ezdxf cannot read), ink F1 cropped and aligned.
   * `ezdxfRef`: this row's picture is the DWG input's reference. `ezdxfDrawError`: a picture failed.
   */
  ezdxfF1?: number | null;
  ezdxfRef?: true;
  ezdxfDrawError?: string;
}

// ---- the corpus ------------------------------------------------------------------------------------

function inputs(): Input[] {
  const manifest = path.join(CORPUS, 'MANIFEST.tsv');
  const listed: { name: string; licence: string }[] = [];
  if (existsSync(manifest)) {
    for (const line of readFileSync(manifest, 'utf8').split('\n').slice(1)) {
      const [name, , , licence] = line.split('\t');
      if (name && /^(dwg|dxf)\/.*\.(dwg|dxf)$/i.test(name)) listed.push({ name, licence: licence ?? '?' });
    }
  } else {
    for (const sub of ['dwg', 'dxf'])
      if (existsSync(path.join(CORPUS, sub)))
        for (const f of readdirSync(path.join(CORPUS, sub)))
          if (/\.(dwg|dxf)$/i.test(f)) listed.push({ name: `${sub}/${f}`, licence: '?' });
  }
  return listed
    .filter((x) => flag('large') || !path.basename(x.name).startsWith('gen_large_'))
    .filter((x) => only === undefined || x.name.includes(only))
    .map((x) => ({ ...x, file: path.join(CORPUS, x.name) }))
    .filter((x) => existsSync(x.file))
    .map((x) => ({ ...x, bytes: statSync(x.file).size }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

// ---- the worker process ------------------------------------------------------------------------------

/** A child process answering one JSON line per event; `next` waits for a line with a time limit. */
class LineProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: string[] = [];
  private waiter: ((line: string | null) => void) | null = null;
  private exited = false;

  constructor(cmd: string, argv: string[], log: string) {
    this.child = spawn(cmd, argv, { cwd: root, detached: true, stdio: 'pipe' });
    const logFd = log;
    this.child.stderr.on('data', (d: Buffer) => writeFileSync(logFd, d, { flag: 'a' }));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      // Anything but a JSON answer (a library printing to stdout) goes to the log.
      if (!line.startsWith('{')) return writeFileSync(logFd, `stdout: ${line}\n`, { flag: 'a' });
      if (this.waiter) {
        const w = this.waiter;
        this.waiter = null;
        w(line);
      } else this.lines.push(line);
    });
    this.child.on('exit', () => {
      this.exited = true;
      this.waiter?.(null);
      this.waiter = null;
    });
  }

  send(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /** The next line; null when the process ended or the time ran out (then it is killed). */
  next(timeoutMs: number): Promise<string | null> {
    const queued = this.lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.exited) return Promise.resolve(null);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        this.kill();
        resolve(null);
      }, timeoutMs);
      this.waiter = (line) => {
        clearTimeout(timer);
        resolve(line);
      };
    });
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Kills the process and everything it started (its DWG reader). */
  kill(): void {
    if (this.exited || !this.child.pid) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }

  async close(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdin.end();
    const timer = setTimeout(() => this.kill(), 10_000);
    await gone;
    clearTimeout(timer);
  }
}

let worker: LineProcess | null = null;
const workerLog = path.join(OUT, 'worker.log');
const startWorker = (): LineProcess => new LineProcess(process.execPath, ['--import', 'tsx', WORKER], workerLog);

// ---- ezdxf ---------------------------------------------------------------------------------------------

let python: LineProcess | null = null;
const sha1 = (bytes: Uint8Array): string => createHash('sha1').update(bytes).digest('hex').slice(0, 16);

async function ezdxfCheck(file: string): Promise<EzdxfResult> {
  if (!existsSync(file)) return { ok: false, error: `the result ${file} is gone` };
  const key = sha1(readFileSync(file));
  const cached = path.join(RESULTS, 'ezdxf', `${key}.json`);
  if (!flag('fresh') && existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8')) as EzdxfResult;
  if (!python?.alive) python = new LineProcess(PYTHON, [EZDXF_CHECK], path.join(RESULTS, 'ezdxf.log'));
  python.send(file);
  const line = await python.next(EZDXF_TIMEOUT_MS);
  const result: EzdxfResult =
    line === null ? { ok: false, error: `no answer within ${EZDXF_TIMEOUT_MS / 1000} s` } : (JSON.parse(line) as EzdxfResult);
  if (line !== null) writeFileSync(cached, JSON.stringify(result));
  return result;
}

/** ezdxf draws with matplotlib (Debian's python3-matplotlib); without it the DXF check is a reading and a count. */
const ezdxfCanDraw = spawnSync(PYTHON, ['-c', 'import matplotlib'], { stdio: 'ignore' }).status === 0;

/** Inputs whose pictures ezdxf draws at once (a Python process each, beside the conversion worker). */
const PICTURE_JOBS = 2;
let pictureJobs = 0;
const pictureQueue: (() => void)[] = [];
const pendingPictures: Promise<void>[] = [];

async function inPictureSlot(job: () => Promise<void>): Promise<void> {
  if (pictureJobs >= PICTURE_JOBS) await new Promise<void>((resolve) => pictureQueue.push(resolve));
  pictureJobs++;
  try {
    await job();
  } finally {
    pictureJobs--;
    pictureQueue.shift()?.();
  }
}

/** Bumped when bench/saveas-ezdxf-draw.py draws differently (its cached pictures are then redrawn). */
const EZDXF_PICTURE_VERSION = 2;

interface Drawn {
  row: Row;
  file: string;
}

/**
 * ezdxf's pictures of `reference` and of each result in the reference's view (bench/saveas-ezdxf-draw.py),
 * cached by the two files' hashes: each result's picture path, or why it is missing.
 */
async function drawAlike(
  reference: string,
  results: Drawn[],
): Promise<{ ref: string | { error: string }; of: Map<Row, string | { error: string }> }> {
  const refKey = sha1(readFileSync(reference));
  const png = (file: string): string =>
    path.join(RESULTS, 'ezdxf', `v${EZDXF_PICTURE_VERSION}.${refKey}.${file === reference ? 'reference' : sha1(readFileSync(file))}.png`);
  const refPng = png(reference);
  const pngs = new Map(results.map((d) => [d, png(d.file)]));
  const answers = new Map<string, string | null>();
  if (flag('fresh') || ![refPng, ...pngs.values()].every((f) => existsSync(f))) {
    const argv = [EZDXF_SAME_VIEW, String(RENDER_WIDTH), reference, refPng, ...results.flatMap((d) => [d.file, pngs.get(d) as string])];
    const r = await runPython(argv, EZDXF_TIMEOUT_MS * (1 + results.length));
    for (const line of r.stdout.split('\n')) {
      if (!line.trim()) continue;
      const a = JSON.parse(line) as { png: string; error?: string };
      answers.set(a.png, a.error ?? null);
    }
    if (r.error && !answers.size) answers.set(refPng, `ezdxf did not draw: ${r.error}`);
  }
  const outcome = (f: string): string | { error: string } => {
    const error = answers.get(f);
    if (error) return { error };
    return existsSync(f) ? f : { error: answers.has(f) ? 'no picture' : 'not drawn (ezdxf stopped before it)' };
  };
  return { ref: outcome(refPng), of: new Map(results.map((d) => [d.row, outcome(pngs.get(d) as string)])) };
}

const EZDXF_REFERENCE: Target = { format: 'dxf', version: '2018' };

/**
 * ezdxf's agreement for an input's DXF results: each result's picture against ezdxf's picture of the
 * original DXF in the same view, pixel for pixel as our engine's are compared. A DWG input (ezdxf reads
 * no DWG) or a DXF ezdxf cannot read has its DXF 2018 result as the reference instead.
 */
async function ezdxfAgreement(input: Input, results: Drawn[]): Promise<void> {
  const ref2018 = results.find((d) => sameTarget(d.row.target, EZDXF_REFERENCE));
  let pictures = input.name.toLowerCase().endsWith('.dxf') ? await drawAlike(input.file, results) : null;
  if ((!pictures || typeof pictures.ref !== 'string') && ref2018) {
    ref2018.row.ezdxfRef = true;
    pictures = await drawAlike(
      ref2018.file,
      results.filter((d) => d !== ref2018),
    );
  }
  if (!pictures) return;
  const { ref } = pictures;
  const refImg = typeof ref === 'string' ? await decodePng(ref) : null;
  for (const [row, got] of pictures.of) {
    if (typeof got !== 'string' || !refImg) {
      row.ezdxfDrawError =
        typeof got !== 'string' ? got.error : `the reference picture: ${typeof ref === 'string' ? 'unreadable' : ref.error}`;
      continue;
    }
    const img = await decodePng(got);
    const score = img ? compareInk(img, refImg, { crop: false, tolerance: F1_TOLERANCE, background: WHITE }) : null;
    row.ezdxfF1 = score ? score.f1 : null;
    if (score && score.f1 < TARGET_MEDIAN) {
      mkdirSync(path.join(OUT, 'png'), { recursive: true });
      const base = `${safe(path.basename(input.name))}.ezdxf`;
      copyFileSync(ref as string, path.join(OUT, 'png', `${base}.reference.png`));
      copyFileSync(got, path.join(OUT, 'png', `${base}.${row.target.format}${row.target.version}.png`));
    }
  }
}

// ---- one input ------------------------------------------------------------------------------------------

function failedRow(input: Input, target: Target, status: Row['status'], error: string): Row {
  return {
    input: input.name,
    licence: input.licence,
    target,
    status,
    error,
    f1: null,
    scenes: [],
    reported: [],
    reportKind: 'notes',
    lost: [],
    readbackProblems: [],
  };
}

async function sweepInput(input: Input, scratch: string): Promise<Row[]> {
  const rows: Row[] = [];
  const drawn: Drawn[] = [];
  const drawPictures = !flag('no-ezdxf') && ezdxfCanDraw;
  let pending = [...TARGETS];
  while (pending.length) {
    worker ??= startWorker();
    const request: WorkerRequest = {
      file: input.file,
      name: path.basename(input.name),
      targets: pending,
      scratch,
      pngDir: path.join(OUT, 'png'),
    };
    worker.send(JSON.stringify(request));
    const sourceLine = await worker.next(SOURCE_TIMEOUT_MS);
    if (sourceLine === null) {
      worker = null;
      for (const t of pending)
        rows.push(
          failedRow(input, t, 'timeout', `reading or rendering the original took over ${SOURCE_TIMEOUT_MS / 1000} s (or the worker died)`),
        );
      return rows;
    }
    const source = JSON.parse(sourceLine) as SourceEvent;
    if (!source.ok) {
      await worker.next(SOURCE_TIMEOUT_MS); // 'done'
      for (const t of pending) rows.push(failedRow(input, t, source.refused ? 'refused' : 'failed', source.error));
      return rows;
    }
    while (pending.length) {
      const target = pending[0] as Target;
      const line = await worker.next(TIMEOUT_MS);
      if (line === null) {
        rows.push(
          failedRow(
            input,
            target,
            'timeout',
            `no result within ${TIMEOUT_MS / 1000} s (conversion, read-back and render), or the worker died`,
          ),
        );
        worker = null;
        pending = pending.slice(1);
        break;
      }
      const r = JSON.parse(line) as TargetRow;
      pending = pending.slice(1);
      const reported = reportedByType(r);
      const scenes = (r.scenes ?? []).map((s) => ({
        name: s.name,
        f1: s.f1,
        ...(s.missing ? { missing: true as const } : {}),
        ...(s.dropped ? { dropped: true as const } : {}),
        ...(s.extentsMoved ? { extentsMoved: true as const } : {}),
        ...(s.pageSetupChanged ? { pageSetupChanged: true as const } : {}),
      }));
      const row: Row = {
        input: input.name,
        licence: input.licence,
        target,
        status: r.status,
        f1: r.f1 ?? null,
        scenes,
        reported: reported.lines,
        reportKind: reported.kind,
        lost: r.status === 'ok' ? lostUnreported(r, reported) : [],
        readbackProblems: r.status === 'ok' ? readbackProblems(r) : [],
        ...(r.error ? { error: r.error } : {}),
        ...(r.convertMs !== undefined ? { convertMs: Math.round(r.convertMs) } : {}),
        ...(r.bytes !== undefined ? { bytes: r.bytes } : {}),
      };
      if (r.outFile) {
        if (r.status === 'ok' && !flag('no-ezdxf')) {
          const ez = await ezdxfCheck(r.outFile);
          const disagree = ez.ok && ez.counts && r.countsAll ? countsDisagree(r.countsAll, ez.counts) : '';
          row.ezdxf = { ...ez, ...(disagree ? { disagree } : {}) };
        }
        if (r.status === 'ok' && target.format === 'dxf' && drawPictures) drawn.push({ row, file: r.outFile });
        else rmSync(r.outFile, { force: true });
      }
      rows.push(row);
    }
    if (!pending.length && worker) await worker.next(TIMEOUT_MS); // 'done'
  }
  if (drawn.length) {
    // Drawn beside the next inputs' conversions; its results kept until then.
    pendingPictures.push(
      inPictureSlot(() => ezdxfAgreement(input, drawn)).finally(() => {
        for (const d of drawn) rmSync(d.file, { force: true });
      }),
    );
  }
  return rows;
}

// ---- the tables ------------------------------------------------------------------------------------------

const median = (xs: number[]): number => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const f3 = (x: number | null | undefined): string => (x === null || x === undefined || !Number.isFinite(x) ? '-' : x.toFixed(3));
const pad = (s: string, n: number): string => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const padL = (s: string, n: number): string => (s.length >= n ? s : ' '.repeat(n - s.length) + s);
const sameTarget = (a: Target, b: Target): boolean => a.format === b.format && a.version === b.version;

/** A DXF result ezdxf does not read cleanly: a read error, an audit error it could not fix, or other counts. */
const ezdxfBad = (r: Row): boolean => !!r.ezdxf && (!r.ezdxf.ok || (r.ezdxf.auditErrors ?? 0) > 0 || !!r.ezdxf.disagree || !!r.ezdxf.error);
const peerBad = (r: Row): boolean => (r.target.format === 'dxf' ? ezdxfBad(r) : r.readbackProblems.length > 0);
const failed = (r: Row): boolean => r.status === 'failed' || r.status === 'timeout';
/** Lowered and dropped, short: "TYPE N how" per change ("left out" for a drop the notes report). */
function whatChanged(r: Row): string {
  const short = r.reported.map((l) => {
    if (r.reportKind === 'changes') return l.replace(/ \((lowered|dropped)\)$/, '');
    const m = /^(.+?): (\d+) (.*)$/.exec(l);
    if (!m) return l;
    return SECOND_PAPER.test(m[3] ?? '')
      ? `layout ${m[1]} (${m[2]} entities) left out`
      : `${m[1]} ${m[2]}${/left out/.test(m[3] ?? '') ? ' left out' : ''}`;
  });
  return short.join(', ') || 'nothing reported';
}

function printTables(rows: Row[]): { verdictLines: string[]; ok: boolean } {
  const scored = (rs: Row[]): Row[] => rs.filter((r) => r.status === 'ok' && r.f1 !== null);
  const refused = [...new Set(rows.filter((r) => r.status === 'refused').map((r) => `${r.input} (${r.error})`))];
  const inputsDone = new Set(rows.map((r) => r.input)).size;
  console.log(
    `\nSave-as sweep: ${inputsDone} inputs x ${TARGETS.length} targets, ${rows.length} rows; sources our reader refuses (not counted): ${refused.length}`,
  );
  for (const r of refused) console.log(`  refused: ${r}`);

  const head = [
    'target',
    'files',
    'failed',
    'median F1',
    'min F1',
    '< 0.97',
    'lost unrep.',
    'reader check',
    'ezdxf F1 med/min',
    'ezdxf < 0.97',
    'median conv. ms',
  ];
  const widths = [10, 6, 7, 10, 8, 7, 12, 13, 17, 13, 15];
  console.log(`\n${head.map((h, i) => pad(h, widths[i] as number)).join(' ')}`);
  const table: string[][] = [];
  const verdictLines: string[] = [];
  let allOk = true;
  for (const t of TARGETS) {
    const rs = rows.filter((r) => sameTarget(r.target, t) && r.status !== 'refused');
    const sc = scored(rs);
    const f1s = sc.map((r) => r.f1 as number);
    const med = median(f1s);
    const min = f1s.length ? Math.min(...f1s) : NaN;
    const under = sc.filter((r) => (r.f1 as number) < TARGET_MIN).length;
    const lost = rs.filter((r) => r.lost.length).length;
    const fail = rs.filter(failed).length;
    const bad = rs.filter(peerBad).length;
    const checker = t.format === 'dxf' ? 'ezdxf' : 'LibreDWG';
    const checked = t.format === 'dxf' ? rs.filter((r) => r.ezdxf).length : rs.filter((r) => r.status === 'ok').length;
    // ezdxf's pictures (DXF targets): the rows compared, and those it could not draw.
    const ezScored = rs.filter((r) => typeof r.ezdxfF1 === 'number').map((r) => r.ezdxfF1 as number);
    const ezUndrawn = rs.filter(
      (r) => r.ezdxfDrawError || (r.status === 'ok' && t.format === 'dxf' && ezdxfCanDraw && r.ezdxfF1 === null),
    ).length;
    const ezUnder = ezScored.filter((f) => f < TARGET_MIN).length;
    const ezRef = rs.filter((r) => r.ezdxfRef).length;
    const cells = [
      targetName(t),
      String(rs.length),
      String(fail),
      f3(med),
      f3(min),
      String(under),
      String(lost),
      `${checked - bad}/${checked} ok`,
      ezScored.length ? `${f3(median(ezScored))}/${f3(Math.min(...ezScored))}` : ezRef ? 'reference' : '-',
      ezScored.length ? `${ezUnder}${ezUndrawn ? ` (+${ezUndrawn} undrawn)` : ''}` : ezUndrawn ? `${ezUndrawn} undrawn` : '-',
      String(Math.round(median(rs.map((r) => r.convertMs ?? NaN)))),
    ];
    table.push(cells);
    console.log(cells.map((c, i) => (i === 0 ? pad(c, widths[i] as number) : padL(c, (widths[i] as number) - 1) + ' ')).join(' '));
    const ezOk = !ezScored.length || (median(ezScored) >= TARGET_MEDIAN && ezUnder === 0 && ezUndrawn === 0);
    const ok = med >= TARGET_MEDIAN && under === 0 && lost === 0 && fail === 0 && bad === 0 && ezOk;
    allOk &&= ok;
    const ezText = ezScored.length
      ? `; ezdxf's picture: median F1 ${f3(median(ezScored))}, ${ezUnder} under ${TARGET_MIN}${ezUndrawn ? `, ${ezUndrawn} not drawn` : ''}`
      : '';
    verdictLines.push(
      `${pad(targetName(t), 9)} ${ok ? 'PASS' : 'FAIL'}: median F1 ${f3(med)} (target >= ${TARGET_MEDIAN}), ${under} file(s) under ${TARGET_MIN} (min ${f3(min)}), ${lost} with entities lost unreported, ${fail} failed, ${bad} not read cleanly by ${checker}${ezText}`,
    );
  }
  writeFileSync(path.join(OUT, 'table.md'), tableMarkdown(head, table));

  // The worst ten files: each file at its worst target, with the other targets it falls under 0.97 in.
  const byInput = new Map<string, Row[]>();
  for (const r of scored(rows)) byInput.set(r.input, [...(byInput.get(r.input) ?? []), r]);
  const worstOf = (rs: Row[]): Row => rs.reduce((w, r) => ((r.f1 as number) < (w.f1 as number) ? r : w));
  const worst = [...byInput.values()]
    .map(worstOf)
    .sort((a, b) => (a.f1 as number) - (b.f1 as number))
    .slice(0, 10);
  console.log('\nWorst ten files (F1 at its worst target; the other targets under 0.97; what the writer lowered or dropped there):');
  for (const r of worst) {
    const others = (byInput.get(r.input) ?? []).filter((x) => x !== r && (x.f1 as number) < TARGET_MIN).map((x) => targetName(x.target));
    const scene =
      r.scenes.length > 1
        ? ` [${r.scenes.map((s) => `${s.name} ${s.dropped ? 'left out (reported)' : `${f3(s.f1)}${s.missing ? ' missing' : ''}`}`).join(', ')}]`
        : '';
    const lost = r.lost.length ? `; LOST: ${r.lost.map((l) => `${l.type} ${l.in}->${l.out} (reported ${l.reported})`).join(', ')}` : '';
    console.log(
      `  ${f3(r.f1)}  ${pad(r.input, 44)} ${pad(targetName(r.target), 9)} ${others.length ? `(also < ${TARGET_MIN}: ${others.length === TARGETS.length - 1 ? 'every other target' : others.join(', ')}) ` : ''}${whatChanged(r)}${lost}${scene}`,
    );
  }
  const lostRows = rows.filter((r) => r.lost.length);
  if (lostRows.length) {
    console.log(`\nEntities lost, not reported (${lostRows.length} rows):`);
    for (const r of lostRows)
      console.log(
        `  ${pad(r.input, 44)} ${pad(targetName(r.target), 9)} ${r.lost.map((l) => `${l.type} ${l.in}->${l.out} (reported ${l.reported})`).join(', ')}`,
      );
  }
  const ezLow = rows.filter((r) => (typeof r.ezdxfF1 === 'number' && r.ezdxfF1 < TARGET_MIN) || r.ezdxfDrawError);
  if (ezLow.length) {
    console.log(
      `\nezdxf's picture of the result under ${TARGET_MIN} against its picture of the reference, or not drawn (${ezLow.length}):`,
    );
    for (const r of ezLow.sort((a, b) => (a.ezdxfF1 ?? -1) - (b.ezdxfF1 ?? -1)))
      console.log(
        `  ${r.ezdxfDrawError ? 'not drawn' : f3(r.ezdxfF1)}  ${pad(r.input, 44)} ${pad(targetName(r.target), 9)} ${r.ezdxfDrawError ?? whatChanged(r)}`,
      );
  }
  const failures = rows.filter(failed);
  if (failures.length) {
    console.log(`\nFailures (${failures.length}):`);
    for (const r of failures) console.log(`  ${pad(r.input, 44)} ${pad(targetName(r.target), 9)} ${r.status}: ${r.error}`);
  }
  const bad = rows.filter(peerBad);
  if (bad.length) {
    console.log(`\nResults the other reader does not read cleanly (${bad.length}):`);
    for (const r of bad) {
      const why =
        r.target.format === 'dwg'
          ? r.readbackProblems.join('; ')
          : !r.ezdxf?.ok
            ? `ezdxf: ${r.ezdxf?.error}`
            : [
                r.ezdxf.error ?? '',
                r.ezdxf.auditErrors ? `audit errors ${r.ezdxf.auditErrors}: ${(r.ezdxf.auditMessages ?? []).join(' | ')}` : '',
                r.ezdxf.disagree ? `counts differ: ${r.ezdxf.disagree}` : '',
              ]
                .filter(Boolean)
                .join('; ');
      console.log(`  ${pad(r.input, 44)} ${pad(targetName(r.target), 9)} ${why}`);
    }
  }
  if (!flag('no-ezdxf') && !ezdxfCanDraw)
    console.log(
      "\nezdxf's pictures: not drawn (no matplotlib for /usr/bin/python3: apt-get install python3-matplotlib); the DXF check is ezdxf reading each result, its audit, and its entity counts against ours.",
    );
  return { verdictLines, ok: allOk };
}

function tableMarkdown(head: string[], table: string[][]): string {
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  const rule = `|${head.map((_, i) => (i ? '---:' : '---')).join('|')}|`;
  return [line(head), rule, ...table.map(line)].join('\n') + '\n';
}

// ---- main ----------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  mkdirSync(path.join(RESULTS, 'ezdxf'), { recursive: true });
  mkdirSync(OUT, { recursive: true });
  const rowsFile = path.join(OUT, 'rows.json');
  let rows: Row[];
  if (flag('tables-only')) {
    rows = JSON.parse(readFileSync(rowsFile, 'utf8')) as Row[];
  } else {
    const list = inputs();
    if (!list.length) {
      console.log(`No DWG or DXF under ${CORPUS}${only ? ` matching '${only}'` : ''}: nothing to sweep.`);
      return;
    }
    console.log(`Save-as sweep: ${list.length} inputs from ${CORPUS}, targets ${TARGETS.map(targetName).join(', ')}`);
    // Each run its own scratch folder (another run, e.g. an --only one, may be going on beside it).
    const scratch = path.join(RESULTS, `scratch.${process.pid}`);
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch, { recursive: true });
    rmSync(workerLog, { force: true });
    rmSync(path.join(OUT, 'png'), { recursive: true, force: true });
    rows = [];
    const started = Date.now();
    try {
      for (const [i, input] of list.entries()) {
        const t0 = Date.now();
        let got: Row[];
        try {
          got = await sweepInput(input, scratch);
        } catch (e) {
          // A fault of the bench itself on this input: its rows say so, the sweep goes on with a fresh worker.
          worker?.kill();
          worker = null;
          got = TARGETS.map((t) => failedRow(input, t, 'failed', `the bench failed on this input: ${(e as Error).message}`));
        }
        rows.push(...got);
        const f1s = got.filter((r) => r.f1 !== null).map((r) => r.f1 as number);
        const flags = [
          got.some((r) => r.status === 'refused') ? 'refused' : '',
          got.filter(failed).length ? `${got.filter(failed).length} failed` : '',
          got.filter((r) => r.lost.length).length ? `${got.filter((r) => r.lost.length).length} lost` : '',
          got.filter(peerBad).length ? `${got.filter(peerBad).length} reader check` : '',
        ].filter(Boolean);
        console.log(
          `[${i + 1}/${list.length}] ${pad(input.name, 48)} min F1 ${f3(f1s.length ? Math.min(...f1s) : NaN)} ${((Date.now() - t0) / 1000).toFixed(1)} s${flags.length ? `  (${flags.join(', ')})` : ''}`,
        );
        writeFileSync(rowsFile, JSON.stringify(rows, null, 1));
      }
      if (pendingPictures.length) {
        console.log(`Waiting for ezdxf's pictures (${pendingPictures.length} inputs)...`);
        const settled = await Promise.allSettled(pendingPictures);
        for (const s of settled) if (s.status === 'rejected') console.log(`  ezdxf's pictures failed: ${String(s.reason)}`);
        writeFileSync(rowsFile, JSON.stringify(rows, null, 1));
      }
    } finally {
      await worker?.close();
      await python?.close();
      rmSync(scratch, { recursive: true, force: true });
    }
    console.log(`Swept in ${((Date.now() - started) / 60_000).toFixed(1)} min; rows in ${path.relative(root, rowsFile)}`);
  }
  const { verdictLines, ok } = printTables(rows);
  console.log('\nVerdicts per target:');
  for (const l of verdictLines) console.log(`  ${l}`);
  console.log(
    `\nOverall: ${ok ? 'PASS' : 'FAIL'} (median F1 >= ${TARGET_MEDIAN} and every file >= ${TARGET_MIN} per target, no entity lost unreported, every result read back cleanly)`,
  );
}

await main();
