/**
 * Node only. Reads DWG files by running the DWG reader program (packages/cad-dwg, GPL-3.0-or-later)
 * as a child process: the engine never imports that package; it sends the file's bytes on the
 * child's stdin and reads the drawing model back from its stdout (docs/decisions/0016).
 *
 * Start-up: running the program's TypeScript through tsx costs ~0.25 s a read, so the program is
 * bundled once with esbuild (as packages/cad-cli/bin/cad.cjs bundles the command) into one ES
 * module under node_modules/.cache/cad-dwg/ of this package, rebuilt when one of its files changes;
 * @mlightcad/libredwg-web stays outside the bundle (it loads its .wasm next to its code). Without
 * esbuild, tsx runs the sources (CAD_NO_BUNDLE=1 forces that). The child compiles LibreDWG's 9 MB
 * of WebAssembly with the baseline compiler only (`--liftoff-only`): optimising it takes longer
 * than any corpus drawing takes to read (0.25 s instead of 0.55 s for a small drawing, 1.6 s
 * instead of 2.4 s for the 7 MB one).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deserialize } from 'node:v8';
import type { ReadResult } from './dxf/reader';
import { CadReadError, type CadReadErrorReason } from './errors';

export interface ReadDwgOptions {
  /** Kill the reader after this long (default 60 s). */
  timeoutMs?: number;
}

/** The version signature a DWG file starts with: 'AC1015', 'AC1032', 'AC1.40', ...; null if none. */
export function dwgVersion(bytes: Uint8Array): string | null {
  if (bytes.length < 6 || bytes[0] !== 0x41 || bytes[1] !== 0x43) return null;
  let s = '';
  for (let i = 0; i < 6; i++) {
    const c = bytes[i] as number;
    if (c === 0 && i === 5) break;
    if (c < 0x20 || c > 0x7e) return null;
    s += String.fromCharCode(c);
  }
  return /^AC(\d{4}|[12]\.\d{1,2})$/.test(s) ? s : null;
}

/** True when the bytes start like a DWG file (any release). */
export function isDwg(bytes: Uint8Array): boolean {
  return dwgVersion(bytes) !== null;
}

const EXIT_REASONS: Record<number, CadReadErrorReason> = { 2: 'corrupt', 3: 'unsupported', 4: 'empty' };
const MAX_STDERR = 64 * 1024;

// ---- the reader program --------------------------------------------------------------------------

const READER_MAIN = fileURLToPath(new URL('../../cad-dwg/src/main.ts', import.meta.url));
const CACHE_ROOT = fileURLToPath(new URL('../node_modules/.cache/cad-dwg/', import.meta.url));
const MANIFEST = join(CACHE_ROOT, 'manifest.json');
const LIBREDWG = /^@mlightcad\/libredwg-web$/;
/** V8 flags for the child: LibreDWG's WebAssembly compiled by the baseline compiler only. */
const WASM_FLAGS = ['--liftoff-only'];

const stamp = (file: string): string => {
  try {
    const st = statSync(file);
    return `${st.mtimeMs}:${st.size}`;
  } catch {
    return 'missing';
  }
};

/** The bundled reader, when none of its files changed since it was built. */
function cachedReader(): string | null {
  try {
    const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as { dir: string; inputs: Record<string, string> };
    for (const [file, s] of Object.entries(manifest.inputs)) if (stamp(resolve(CACHE_ROOT, file)) !== s) return null;
    const file = join(CACHE_ROOT, manifest.dir, 'main.mjs');
    return existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

interface EsbuildPlugin {
  name: string;
  setup(build: {
    onResolve(
      o: { filter: RegExp },
      f: (a: { path: string; resolveDir: string; pluginData?: unknown }) => Promise<object | undefined> | object | undefined,
    ): void;
    onLoad(o: { filter: RegExp }, f: (a: { path: string }) => object | undefined): void;
    resolve(
      path: string,
      o: { kind: 'import-statement'; resolveDir: string; pluginData?: unknown },
    ): Promise<{ path: string; errors: unknown[] }>;
  }): void;
}
interface Esbuild {
  build(options: Record<string, unknown>): Promise<{ metafile: { inputs: Record<string, unknown> } }>;
}

/** Bundles the reader program into the cache folder; null when esbuild is not installed or the build fails. */
async function buildReader(): Promise<string | null> {
  let esbuild: Esbuild;
  try {
    // require, not import(): the CLI runs this module from a vm.Script, where import() of a package is not available.
    esbuild = createRequire(import.meta.url)('esbuild') as Esbuild;
  } catch {
    return null;
  }
  const dir = `b${Date.now().toString(36)}${process.pid.toString(36)}`;
  const outdir = join(CACHE_ROOT, dir);
  const externals: string[] = [];
  const plugin: EsbuildPlugin = {
    name: 'cad-dwg',
    setup(build) {
      // LibreDWG stays outside, imported by its absolute location (the bundle lives elsewhere).
      build.onResolve({ filter: LIBREDWG }, async (args) => {
        if (args.pluginData === 'cad-dwg') return undefined;
        const r = await build.resolve(args.path, { kind: 'import-statement', resolveDir: args.resolveDir, pluginData: 'cad-dwg' });
        if (r.errors.length) return undefined;
        externals.push(r.path);
        return { path: pathToFileURL(r.path).href, external: true };
      });
      // A module that finds files next to itself keeps its own location.
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        return {
          contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
          loader: 'ts',
          resolveDir: dirname(args.path),
        };
      });
    },
  };
  try {
    const result = await esbuild.build({
      entryPoints: [READER_MAIN],
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      outfile: join(outdir, 'main.mjs'),
      absWorkingDir: dirname(READER_MAIN),
      metafile: true,
      logLevel: 'silent',
      plugins: [plugin],
    });
    const inputs: Record<string, string> = {};
    const add = (abs: string): void => {
      inputs[relative(CACHE_ROOT, abs)] = stamp(abs);
    };
    for (const file of Object.keys(result.metafile.inputs)) if (!/^[a-z-]+:/.test(file)) add(resolve(dirname(READER_MAIN), file));
    for (const file of externals) add(file);
    // This file decides how the bundle is built.
    add(fileURLToPath(import.meta.url));
    mkdirSync(CACHE_ROOT, { recursive: true });
    const tmp = `${MANIFEST}.${process.pid}`;
    writeFileSync(tmp, JSON.stringify({ dir, inputs }));
    renameSync(tmp, MANIFEST);
    pruneReaders(dir);
    return join(outdir, 'main.mjs');
  } catch {
    rmSync(outdir, { recursive: true, force: true });
    return null;
  }
}

/** Old bundles go after an hour (a read started before a rebuild may still be loading one). */
function pruneReaders(keep: string): void {
  try {
    for (const name of readdirSync(CACHE_ROOT)) {
      const path = join(CACHE_ROOT, name);
      if (name !== keep && name.startsWith('b') && Date.now() - statSync(path).mtimeMs > 3_600_000)
        rmSync(path, { recursive: true, force: true });
    }
  } catch {
    // A cache that cannot be tidied is still usable.
  }
}

let building: Promise<string | null> | null = null;

/** How to start the reader: its bundle (built on first use), else its sources through tsx. */
async function readerCommand(): Promise<{ command: string; args: string[] }> {
  if (!process.env['CAD_NO_BUNDLE']) {
    let bundle = cachedReader();
    if (!bundle) {
      building ??= buildReader().finally(() => {
        building = null;
      });
      bundle = await building;
    }
    if (bundle) return { command: process.execPath, args: [bundle, '-'] };
  }
  // tsx's loader, resolved from here so that the child does not depend on its working directory.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { command: process.execPath, args: ['--import', tsx, READER_MAIN, '-'] };
}

/** Whether this Node takes WASM_FLAGS (an unknown V8 flag stops node with exit code 9). */
let wasmFlagsOk = true;

/** The reason and message from the reader's one-line error (`corrupt: DWG AC1015 is damaged ...`). */
function failure(code: number | null, signal: NodeJS.Signals | null, stderr: string): CadReadError {
  const line =
    stderr
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .pop() ?? '';
  const m = /^(corrupt|unsupported|empty|not-dxf|internal|io): (.*)$/.exec(line);
  const reason = (code !== null && EXIT_REASONS[code]) || 'corrupt';
  if (m && m[1] !== 'internal' && m[1] !== 'io') return new CadReadError(m[1] as CadReadErrorReason, m[2] as string);
  if (signal) return new CadReadError('corrupt', `The DWG reader was stopped (${signal})${line ? `: ${line}` : ''}`);
  return new CadReadError(
    reason,
    `The DWG reader failed${code !== null ? ` (exit ${code})` : ''}${m ? `: ${m[2]}` : line ? `: ${line.slice(0, 300)}` : ''}`,
  );
}

function isReadResult(v: unknown): v is ReadResult {
  const r = v as ReadResult | null;
  return (
    !!r &&
    typeof r === 'object' &&
    Array.isArray(r.warnings) &&
    !!r.drawing &&
    Array.isArray(r.drawing.modelSpace) &&
    typeof r.drawing.layers === 'object'
  );
}

interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: Buffer[];
  err: string;
  timedOut: boolean;
}

/** Runs the reader once on the bytes; settles when it exits or is killed at the time limit. */
function runReader(command: string, args: string[], bytes: Uint8Array, timeoutMs: number): Promise<ChildResult> {
  return new Promise<ChildResult>((resolvePromise, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    const result: ChildResult = { code: null, signal: null, out: [], err: '', timedOut: false };
    let settled = false;
    const finish = (f: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      f();
    };
    const timer = setTimeout(() => {
      result.timedOut = true;
      child.kill('SIGKILL');
      finish(() => resolvePromise(result));
    }, timeoutMs);
    child.stdout.on('data', (c: Buffer) => result.out.push(c));
    child.stderr.on('data', (c: Buffer) => {
      if (result.err.length < MAX_STDERR) result.err += c.toString('utf8');
    });
    child.on('error', (e) => finish(() => reject(new CadReadError('unsupported', `The DWG reader could not start: ${e.message}`))));
    child.on('close', (code, signal) =>
      finish(() => {
        result.code = code;
        result.signal = signal;
        resolvePromise(result);
      }),
    );
    // The child may exit before reading everything (a refused file): ignore the broken pipe.
    child.stdin.on('error', () => {});
    child.stdin.end(bytes);
  });
}

/** The reader kept between reads by `keepDwgReader`, and when it goes. */
let kept: { idleMs: number; reader: DwgReader | null; timer: ReturnType<typeof setTimeout> | null } | null = null;

/**
 * From now on `readDwg` reads through one long-lived reader child (as `openDwgReader`) instead of
 * a child per file, closed after `idleMs` without a read (its memory grows with the largest file
 * it read). For the resident engine of the `cad` command, which reads file after file.
 */
export function keepDwgReader(idleMs: number): void {
  kept ??= { idleMs, reader: null, timer: null };
  kept.idleMs = idleMs;
}

/** Closes the kept reader's child (`keepDwgReader`); the next read starts a new one. */
export async function releaseDwgReader(): Promise<void> {
  const reader = kept?.reader;
  if (!kept || !reader) return;
  if (kept.timer) clearTimeout(kept.timer);
  kept.reader = null;
  kept.timer = null;
  await reader.close();
}

async function readKept(state: NonNullable<typeof kept>, bytes: Uint8Array, options: ReadDwgOptions): Promise<ReadResult> {
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
  const reader = (state.reader ??= openDwgReader());
  try {
    return await reader.read(bytes, options);
  } finally {
    if (state.reader === reader) {
      state.timer = setTimeout(() => void releaseDwgReader(), state.idleMs);
      state.timer.unref();
    }
  }
}

/** Reads a DWG file into the drawing model through the DWG reader program. */
export async function readDwg(bytes: Uint8Array, options: ReadDwgOptions = {}): Promise<ReadResult> {
  if (kept) return readKept(kept, bytes, options);
  if (bytes.length === 0) throw new CadReadError('empty', 'The file is empty');
  const version = dwgVersion(bytes);
  if (!version) throw new CadReadError('corrupt', 'Not a DWG file: it does not start with an AutoCAD version signature (AC10xx)');
  const timeoutMs = options.timeoutMs ?? 60_000;
  const { command, args } = await readerCommand();
  let r = await runReader(command, [...(wasmFlagsOk ? WASM_FLAGS : []), ...args], bytes, timeoutMs);
  if (wasmFlagsOk && r.code === 9 && /bad option/.test(r.err)) {
    // A Node whose V8 does not know the flag: without it, from now on.
    wasmFlagsOk = false;
    r = await runReader(command, args, bytes, timeoutMs);
  }
  if (r.timedOut)
    throw new CadReadError('corrupt', `The DWG reader did not finish within ${Math.round(timeoutMs / 100) / 10} s (DWG ${version})`);
  if (r.code !== 0) throw failure(r.code, r.signal, r.err);
  try {
    const result: unknown = deserialize(Buffer.concat(r.out));
    if (!isReadResult(result)) throw new Error('unexpected output');
    return result;
  } catch (e) {
    throw new CadReadError('corrupt', `The DWG reader's output could not be read: ${(e as Error).message}`);
  }
}

// ---- serve mode: one reader process for many files -----------------------------------------------

/** A long-lived DWG reader: one child process reading the files one after the other. */
export interface DwgReader {
  /** Reads a DWG like `readDwg` (same result, same errors), in the shared child. */
  read(bytes: Uint8Array, options?: ReadDwgOptions): Promise<ReadResult>;
  /** Ends the child once the reads already asked for are done. */
  close(): Promise<void>;
  /** The running child's process id (none before the first read or after a crash). */
  readonly pid: number | undefined;
}

interface ServeJob {
  bytes: Uint8Array;
  version: string;
  timeoutMs: number;
  resolve: (r: ReadResult) => void;
  reject: (e: Error) => void;
}

/** The answer header of the serve mode: status byte and 32-bit length. */
const ANSWER_HEAD = 5;

class ServeReader implements DwgReader {
  private child: ReturnType<typeof spawn> | null = null;
  private starting: Promise<ReturnType<typeof spawn>> | null = null;
  private readonly queue: ServeJob[] = [];
  private current: ServeJob | null = null;
  /** The child the current job was sent to. */
  private servedBy: ReturnType<typeof spawn> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private out: Buffer[] = [];
  private outLength = 0;
  private err = '';
  private closed = false;
  private idle: (() => void)[] = [];

  constructor(private readonly defaults: ReadDwgOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  read(bytes: Uint8Array, options: ReadDwgOptions = {}): Promise<ReadResult> {
    if (this.closed) return Promise.reject(new CadReadError('unsupported', 'The DWG reader was closed'));
    if (bytes.length === 0) return Promise.reject(new CadReadError('empty', 'The file is empty'));
    const version = dwgVersion(bytes);
    if (!version)
      return Promise.reject(new CadReadError('corrupt', 'Not a DWG file: it does not start with an AutoCAD version signature (AC10xx)'));
    const timeoutMs = options.timeoutMs ?? this.defaults.timeoutMs ?? 60_000;
    return new Promise<ReadResult>((resolve, reject) => {
      this.queue.push({ bytes, version, timeoutMs, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.current || this.queue.length) await new Promise<void>((r) => this.idle.push(r));
    const child = this.child ?? (this.starting ? await this.starting.catch(() => null) : null);
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolvePromise) => {
      const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.once('close', () => {
        clearTimeout(kill);
        resolvePromise();
      });
      child.stdin?.end();
    });
  }

  /** Starts the next job when none is running. */
  private pump(): void {
    if (this.current) return;
    const job = this.queue.shift();
    if (!job) {
      for (const f of this.idle.splice(0)) f();
      return;
    }
    this.current = job;
    this.err = '';
    this.ensureChild().then(
      (child) => {
        if (this.current !== job) return;
        this.servedBy = child;
        this.timer = setTimeout(() => this.timedOut(job, child), job.timeoutMs);
        const head = Buffer.alloc(4);
        head.writeUInt32LE(job.bytes.length, 0);
        child.stdin?.write(head);
        child.stdin?.write(job.bytes);
      },
      (e: unknown) => this.settle(job, () => job.reject(e as Error)),
    );
  }

  private settle(job: ServeJob, f: () => void): void {
    if (this.current !== job) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.current = null;
    this.servedBy = null;
    f();
    this.pump();
  }

  private timedOut(job: ServeJob, child: ReturnType<typeof spawn>): void {
    this.drop(child);
    this.settle(job, () =>
      job.reject(
        new CadReadError('corrupt', `The DWG reader did not finish within ${Math.round(job.timeoutMs / 100) / 10} s (DWG ${job.version})`),
      ),
    );
  }

  /** Forgets a child (killing it if it still runs): the next job starts a new one. */
  private drop(child: ReturnType<typeof spawn>): void {
    if (this.child === child) {
      this.child = null;
      this.out = [];
      this.outLength = 0;
    }
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  private ensureChild(): Promise<ReturnType<typeof spawn>> {
    if (this.child) return Promise.resolve(this.child);
    this.starting ??= this.spawnChild().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private async spawnChild(): Promise<ReturnType<typeof spawn>> {
    const { command, args } = await readerCommand();
    const serveArgs = [...args.filter((a) => a !== '-'), '--serve'];
    const child = spawn(command, [...(wasmFlagsOk ? WASM_FLAGS : []), ...serveArgs], {
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const flagged = wasmFlagsOk;
    this.child = child;
    this.out = [];
    this.outLength = 0;
    child.stdout?.on('data', (c: Buffer) => {
      if (this.child !== child) return;
      this.out.push(c);
      this.outLength += c.length;
      this.answers();
    });
    child.stderr?.on('data', (c: Buffer) => {
      if (this.err.length < MAX_STDERR) this.err += c.toString('utf8');
    });
    // A child that exits while a request waits lost it: the request fails and the next one restarts the child.
    child.stdin?.on('error', () => {});
    child.on('error', (e) => {
      const job = this.servedBy === child ? this.current : null;
      this.drop(child);
      if (job) this.settle(job, () => job.reject(new CadReadError('unsupported', `The DWG reader could not start: ${e.message}`)));
    });
    child.on('close', (code, signal) => {
      const job = this.servedBy === child ? this.current : null;
      this.drop(child);
      if (!job) return;
      if (flagged && code === 9 && /bad option/.test(this.err)) {
        // A Node whose V8 does not know the flag: without it, from now on; the job is sent again.
        wasmFlagsOk = false;
        this.current = null;
        this.servedBy = null;
        if (this.timer) clearTimeout(this.timer);
        this.timer = null;
        this.queue.unshift(job);
        this.pump();
        return;
      }
      this.settle(job, () => job.reject(failure(code, signal, this.err)));
    });
    return child;
  }

  /** Takes complete answers off the child's output. */
  private answers(): void {
    while (this.outLength >= ANSWER_HEAD) {
      const all = this.out.length === 1 ? (this.out[0] as Buffer) : Buffer.concat(this.out);
      this.out = [all];
      const size = all.readUInt32LE(1);
      if (all.length < ANSWER_HEAD + size) return;
      const status = all[0];
      const payload = all.subarray(ANSWER_HEAD, ANSWER_HEAD + size);
      const rest = all.subarray(ANSWER_HEAD + size);
      this.out = rest.length ? [rest] : [];
      this.outLength = rest.length;
      const job = this.current;
      if (!job) continue;
      if (status === 0) {
        let result: unknown;
        try {
          result = deserialize(payload);
        } catch (e) {
          this.settle(job, () =>
            job.reject(new CadReadError('corrupt', `The DWG reader's output could not be read: ${(e as Error).message}`)),
          );
          continue;
        }
        if (isReadResult(result)) this.settle(job, () => job.resolve(result as ReadResult));
        else
          this.settle(job, () => job.reject(new CadReadError('corrupt', "The DWG reader's output could not be read: unexpected output")));
      } else this.settle(job, () => job.reject(failure(null, null, payload.toString('utf8'))));
    }
  }
}

/**
 * A DWG reader that keeps one child process for many files (the GPL reader program in its serve
 * mode): much cheaper than `readDwg`'s child per file when a batch is read. Reads queue up and run
 * one at a time; a read that passes its time limit kills the child, and a child that crashes fails
 * the read it was on; either way the next read starts a fresh child. Close it when done.
 */
export function openDwgReader(defaults: ReadDwgOptions = {}): DwgReader {
  return new ServeReader(defaults);
}
