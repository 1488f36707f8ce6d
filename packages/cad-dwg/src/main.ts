/**
 * The DWG reader program. Reads a DWG from the file named on the command line (or stdin with `-`
 * or no argument), writes the drawing model to stdout and exits:
 *
 *   node --import tsx packages/cad-dwg/src/main.ts [FILE|-] [--json]
 *
 * stdout: `v8.serialize({ drawing, warnings })` (or JSON with --json); nothing else is written there.
 * Exit codes: 0 read; 2 corrupt / not a DWG; 3 unsupported version; 4 empty; 1 internal error.
 * On failure, stderr gets one line: `<reason>: <message>`.
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

async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const file = argv.find((a) => a !== '--json');
  // Anything a library prints must not reach the data channel.
  // eslint-disable-next-line no-console
  console.log = (...args: unknown[]) => console.error(...args);
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
    const err = e as Error & { reason?: string };
    const line = (err.message || String(e)).split('\n')[0];
    if (err.name === 'CadReadError' && err.reason) {
      process.stderr.write(`${err.reason}: ${line}\n`);
      return EXIT[err.reason] ?? 2;
    }
    process.stderr.write(`internal: ${line}\n`);
    return 1;
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
