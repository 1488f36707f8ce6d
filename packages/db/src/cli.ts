// `npm run db:migrate` / `npm run db:seed`: migrate or seed the database that the environment
// selects (DATABASE_URL, else SQLITE_PATH, else data/xcad.sqlite). Exits non-zero with one line
// on failure.
import { createDatabase, type DatabaseHandle } from './database';
import { migrateToLatest } from './migrate';
import { runSeeds } from './seeds';

const commands = {
  migrate: async (handle: DatabaseHandle) => {
    const applied = await migrateToLatest(handle.db);
    return applied.length === 0
      ? `db: ${handle.engine} schema is up to date`
      : `db: applied ${applied.length} migration(s) on ${handle.engine}: ${applied.join(', ')}`;
  },
  seed: async (handle: DatabaseHandle) => {
    const names = await runSeeds(handle.db);
    return `db: seeds run on ${handle.engine}: ${names.join(', ')}`;
  },
};

function isCommand(name: string | undefined): name is keyof typeof commands {
  return name !== undefined && Object.hasOwn(commands, name);
}

const name = process.argv[2];
if (!isCommand(name)) {
  console.error(`db: unknown command "${name ?? ''}"; use one of: ${Object.keys(commands).join(', ')}`);
  process.exit(2);
}

let handle: DatabaseHandle | undefined;
try {
  handle = createDatabase();
  console.info(await commands[name](handle));
  await handle.destroy();
} catch (error) {
  console.error(`db: ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
  await handle?.destroy().catch(() => undefined);
  process.exit(1);
}
