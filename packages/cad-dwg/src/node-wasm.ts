/** Node only: the bytes of LibreDWG's .wasm, found next to the installed package. */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

export async function readWasmBytes(): Promise<Uint8Array> {
  const require = createRequire(import.meta.url);
  // The package's CommonJS entry is dist/libredwg-web.umd.cjs; the module sits in ../wasm/.
  const entry = require.resolve('@mlightcad/libredwg-web');
  return readFile(path.join(path.dirname(entry), '..', 'wasm', 'libredwg-web.wasm'));
}
