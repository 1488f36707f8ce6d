import { Migrator, type Kysely } from 'kysely';
import type { Database } from './database.types';
import { migrations } from './migrations';

function migratorFor(db: Kysely<Database>): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

/**
 * Applies every pending migration and returns the names applied (empty when up to date).
 * Throws one readable error naming the failed migration and its cause.
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const { error, results = [] } = await migratorFor(db).migrateToLatest();
  if (error !== undefined) {
    const failed = results.find((result) => result.status === 'Error')?.migrationName;
    const cause = error instanceof Error ? error.message : String(error);
    throw new Error(failed ? `migration ${failed} failed: ${cause}` : `migrations failed: ${cause}`, { cause: error });
  }
  return results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
