// `npm run content:import`, and `npm start` after the seeds (scripts/lib.mjs): imports the
// repository's content/ into the database the environment selects (DATABASE_URL, else SQLITE_PATH,
// else data/xcad.sqlite) and its files into storage (STORAGE_DIR), then runs the site-data
// importers (drawing library, course, software releases). Quiet when nothing changed; one line per
// part that changed; the problems and exit code 1 when the content is refused.
import path from 'node:path';
import { createDatabase, repositoryRoot, type DatabaseHandle } from '@xcad/db';
import { loadEnv } from '../../env';
import { storageFromEnv } from '../../storage';
import { siteImporters } from '../site-importers';
import { syncContentAssets } from './content-assets';
import { formatSummary, hasChanges, importContent } from './content.import';

const contentDir = path.resolve(process.argv[2] ?? path.join(repositoryRoot, 'content'));

let handle: DatabaseHandle | undefined;
try {
  // The API's own storage (local disk or the S3 bucket), read from the same checked variables.
  const storage = storageFromEnv(loadEnv());
  handle = createDatabase();
  const summary = await importContent(handle.db, contentDir);
  if (hasChanges(summary)) console.info(formatSummary(summary));
  const assets = await syncContentAssets(storage, contentDir);
  if (assets.written > 0) console.info(`content: ${assets.written} file(s) stored, ${assets.unchanged} unchanged`);
  for (const importer of siteImporters) {
    const line = await importer.run(handle.db, contentDir, storage);
    if (line !== undefined) console.info(`${importer.name}: ${line}`);
  }
  await handle.destroy();
} catch (error) {
  console.error(`content: ${error instanceof Error ? error.message : String(error)}`);
  await handle?.destroy().catch(() => undefined);
  process.exit(1);
}
