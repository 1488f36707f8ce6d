/**
 * Node only. Reads DWG files by running the DWG reader program (packages/cad-dwg, GPL-3.0-or-later)
 * as a child process: the engine never imports that package; it sends the file's bytes on the
 * child's stdin and reads the drawing model back from its stdout (docs/decisions/0016).
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
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

function readerCommand(): { command: string; args: string[] } {
  const main = fileURLToPath(new URL('../../cad-dwg/src/main.ts', import.meta.url));
  // tsx's loader, resolved from here so that the child does not depend on its working directory.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { command: process.execPath, args: ['--import', tsx, main, '-'] };
}

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
  return new CadReadError(reason, `The DWG reader failed${code !== null ? ` (exit ${code})` : ''}${m ? `: ${m[2]}` : line ? `: ${line.slice(0, 300)}` : ''}`);
}

function isReadResult(v: unknown): v is ReadResult {
  const r = v as ReadResult | null;
  return !!r && typeof r === 'object' && Array.isArray(r.warnings) && !!r.drawing && Array.isArray(r.drawing.modelSpace) && typeof r.drawing.layers === 'object';
}

/** Reads a DWG file into the drawing model through the DWG reader program. */
export async function readDwg(bytes: Uint8Array, options: ReadDwgOptions = {}): Promise<ReadResult> {
  if (bytes.length === 0) throw new CadReadError('empty', 'The file is empty');
  const version = dwgVersion(bytes);
  if (!version) throw new CadReadError('corrupt', 'Not a DWG file: it does not start with an AutoCAD version signature (AC10xx)');
  const timeoutMs = options.timeoutMs ?? 60_000;
  const { command, args } = readerCommand();
  return new Promise<ReadResult>((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    const out: Buffer[] = [];
    let err = '';
    let settled = false;
    const finish = (f: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      f();
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(() => reject(new CadReadError('corrupt', `The DWG reader did not finish within ${Math.round(timeoutMs / 100) / 10} s (DWG ${version})`)));
    }, timeoutMs);
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => {
      if (err.length < MAX_STDERR) err += c.toString('utf8');
    });
    child.on('error', (e) => finish(() => reject(new CadReadError('unsupported', `The DWG reader could not start: ${e.message}`))));
    child.on('close', (code, signal) =>
      finish(() => {
        if (code !== 0) return reject(failure(code, signal, err));
        try {
          const result: unknown = deserialize(Buffer.concat(out));
          if (!isReadResult(result)) throw new Error('unexpected output');
          resolve(result);
        } catch (e) {
          reject(new CadReadError('corrupt', `The DWG reader's output could not be read: ${(e as Error).message}`));
        }
      }),
    );
    // The child may exit before reading everything (a refused file): ignore the broken pipe.
    child.stdin.on('error', () => {});
    child.stdin.end(bytes);
  });
}
