import type { Kysely } from 'kysely';

// Frozen in time: never edit after release, add a new migration instead.
// Issue 28: the download pages show each installer's SHA-256 beside its size, so a visitor can
// check the file the installer server gave them (authored in content/software/*.yml; null for a
// store page or an installer whose checksum is not written down).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('software_file').addColumn('sha256', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('software_file').dropColumn('sha256').execute();
}
