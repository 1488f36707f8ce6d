// `npm run desktop:deb`: the .deb of the Chromium app-mode shell (XCAD_DEB_COMPRESSION=zstd for a fast build).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from './deb';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
try {
  await main(root);
} catch (error) {
  console.error(`[xcad-desktop] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
