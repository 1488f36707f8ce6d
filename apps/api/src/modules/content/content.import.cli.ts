// `npm run content:import`, and `npm start` after the seeds (scripts/lib.mjs): imports the
// repository's content/ into the database the environment selects (DATABASE_URL, else SQLITE_PATH,
// else data/xcad.sqlite). Quiet when nothing changed; one line when something did; the problems
// and exit code 1 when the content is refused.
import path from 'node:path';
import { createDatabase, repositoryRoot, type DatabaseHandle } from '@xcad/db';
import { formatSummary, hasChanges, importContent } from './content.import';

const contentDir = path.resolve(process.argv[2] ?? path.join(repositoryRoot, 'content'));

let handle: DatabaseHandle | undefined;
try {
  handle = createDatabase();
  const summary = await importContent(handle.db, contentDir);
  if (hasChanges(summary)) console.info(formatSummary(summary));
  await handle.destroy();
} catch (error) {
  console.error(`content: ${error instanceof Error ? error.message : String(error)}`);
  await handle?.destroy().catch(() => undefined);
  process.exit(1);
}
