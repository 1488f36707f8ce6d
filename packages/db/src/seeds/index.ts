import type { Kysely } from 'kysely';
import type { Database } from '../database.types';
import { payCatalogueSeed } from './pay-catalogue';
import type { Seed } from './seed';

export type { Seed } from './seed';

/** Every seed, in the order they run; the issues that bring content, products and the like append theirs. */
export const seeds: Seed[] = [payCatalogueSeed];

/** Runs every seed, each in its own transaction; returns the names run. */
export async function runSeeds(db: Kysely<Database>, registry: Seed[] = seeds): Promise<string[]> {
  for (const seed of registry) {
    try {
      await db.transaction().execute((trx) => seed.run(trx));
    } catch (error) {
      const cause = error instanceof Error ? error.message : String(error);
      throw new Error(`seed ${seed.name} failed: ${cause}`, { cause: error });
    }
  }
  return registry.map((seed) => seed.name);
}
