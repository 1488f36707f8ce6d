/**
 * The DWG reader program. Reads a DWG from the file named on the command line (or stdin with `-`
 * or no argument), writes the drawing model to stdout and exits:
 *
 *   node --import tsx packages/cad-dwg/src/main.ts [FILE|-] [--json]
 *
 * stdout: `v8.serialize({ drawing, warnings })` (or JSON with --json); nothing else is written there.
 * Exit codes: 0 read; 2 corrupt / not a DWG; 3 unsupported version; 4 empty; 1 internal error.
 * On failure, stderr gets one line: `<reason>: <message>`.
 *
 * Serve mode (`--serve`) reads many files in one process: stdin carries requests, each a 32-bit
 * little-endian length and that many bytes of DWG; stdout carries one answer per request, in
 * order: a status byte (0 read, 1 refused), a 32-bit little-endian length, then the same
 * `v8.serialize({ drawing, warnings })` as the one-shot mode, or for status 1 the one-line
 * `<reason>: <message>` in UTF-8. Each file gets a fresh LibreDWG instance, as in one-shot mode.
 * The program exits 0 when stdin ends.
 */
import { readFile } from 'node:fs/promises';
import { serialize } from 'node:v8';
import { readDwgBytes } from './read';

const EXIT: Record<string, number> = { corrupt: 2, 'not-dxf': 2, unsupported: 3, empty: 4 };

async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function write(data: Uint8Array | string): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(data, (err) => (err ? reject(err) : resolve())));
}

/** The one-line refusal of a failed read, and whether the reader knows the reason (else internal). */
function refusal(e: unknown): { line: string; known: boolean; reason: string } {
  const err = e as Error & { reason?: string };
  const line = (err.message || String(e)).split('\n')[0] ?? '';
  const known = err.name === 'CadReadError' && !!err.reason;
  return { line, known, reason: known ? (err.reason as string) : 'internal' };
}

/** Largest request the serve mode accepts (the one-shot mode has no limit but memory). */
const MAX_REQUEST = 0x7fffffff;

async function serve(): Promise<number> {
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of process.stdin) {
    pending = pending.length ? Buffer.concat([pending, chunk as Buffer]) : (chunk as Buffer);
    while (pending.length >= 4) {
      const size = pending.readUInt32LE(0);
      if (size > MAX_REQUEST) {
        process.stderr.write(`io: request of ${size} bytes refused\n`);
        return 1;
      }
      if (pending.length < 4 + size) break;
      const bytes = pending.subarray(4, 4 + size);
      pending = pending.subarray(4 + size);
      let status = 0;
      let payload: Uint8Array;
      try {
        payload = serialize(await readDwgBytes(bytes));
      } catch (e) {
        const r = refusal(e);
        status = 1;
        payload = Buffer.from(`${r.reason}: ${r.line}`, 'utf8');
      }
      const head = Buffer.alloc(5);
      head[0] = status;
      head.writeUInt32LE(payload.length, 1);
      await write(Buffer.concat([head, payload]));
    }
  }
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  // Anything a library prints must not reach the data channel.
  // eslint-disable-next-line no-console
  console.log = (...args: unknown[]) => console.error(...args);
  if (argv.includes('--serve')) return serve();
  const file = argv.find((a) => a !== '--json');
  let bytes: Uint8Array;
  try {
    bytes = file && file !== '-' ? await readFile(file) : await readStdin();
  } catch (e) {
    process.stderr.write(`io: cannot read ${file ?? 'stdin'}: ${(e as Error).message}\n`);
    return 1;
  }
  try {
    const result = await readDwgBytes(bytes);
    await write(json ? JSON.stringify(result) : serialize(result));
    return 0;
  } catch (e) {
    const r = refusal(e);
    process.stderr.write(`${r.reason}: ${r.line}\n`);
    return r.known ? (EXIT[r.reason] ?? 2) : 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`internal: ${(e as Error).message}\n`);
    process.exitCode = 1;
  },
);
