import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '@xcad/db';
import type { Kysely } from 'kysely';
import type { Env } from '../env';
import type { Storage } from '../storage';

/** What the site's feature modules (drawings, course, software, feedback) are built from. */
export interface SiteDeps {
  db: Kysely<Database>;
  env: Env;
  storage: Storage;
  log: FastifyBaseLogger;
  /** Server time in epoch milliseconds. */
  clock: () => number;
}

export interface SiteRoutesOptions {
  deps: SiteDeps;
}

/**
 * One importer of site data authored under content/ (besides the Markdown posts): it reads its
 * files, checks all of them before writing, writes in one transaction, and is idempotent.
 * Resolves with a one-line summary when it changed something, else undefined.
 */
export interface SiteImporter {
  readonly name: string;
  run(db: Kysely<Database>, contentDir: string, storage: Storage): Promise<string | undefined>;
}
