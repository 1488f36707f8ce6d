import type { Database, Executor, FileUploadRow } from '@xcad/db';
import type { Kysely } from 'kysely';

// All SQL of the second upload client (tables file_upload, file_upload_chunk). A chunk costs the
// same whatever its number: one row looked up by its key, one conditional insert, one increment.

export type NewFileUpload = Omit<FileUploadRow, 'received' | 'completed_at'>;

export async function insertFileUpload(db: Executor, upload: NewFileUpload): Promise<void> {
  await db.insertInto('file_upload').values(upload).execute();
}

export async function findFileUpload(db: Executor, code: string): Promise<FileUploadRow | undefined> {
  return db.selectFrom('file_upload').selectAll().where('code', '=', code).executeTakeFirst();
}

/**
 * Records a stored chunk and answers how many distinct chunks the upload has: a chunk seen before
 * (a retry) is not counted twice, and two chunks recorded at once each count once.
 */
export async function recordFileChunk(db: Kysely<Database>, code: string, chunknum: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('file_upload_chunk')
      .values({ code, chunknum })
      .onConflict((conflict) => conflict.columns(['code', 'chunknum']).doNothing())
      .executeTakeFirst();
    const counted =
      Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0
        ? await trx
            .updateTable('file_upload')
            .set((eb) => ({ received: eb('received', '+', 1) }))
            .where('code', '=', code)
            .returning('received')
            .executeTakeFirst()
        : await trx.selectFrom('file_upload').select('received').where('code', '=', code).executeTakeFirst();
    return Number(counted?.received ?? 0);
  });
}

/** Marks the upload whole; false when another request did first. */
export async function completeFileUpload(db: Executor, code: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('file_upload')
    .set({ completed_at: now })
    .where('code', '=', code)
    .where('completed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The chunks' rows of a whole upload are no longer needed. */
export async function deleteFileChunkRows(db: Executor, code: string): Promise<void> {
  await db.deleteFrom('file_upload_chunk').where('code', '=', code).execute();
}

/** Uploads whose retention ended, a batch at a time. */
export async function expiredFileUploads(db: Executor, now: number, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('file_upload')
    .select('code')
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
  return rows.map((row) => row.code);
}

/** Forgets an upload and its chunks' rows (its stored files are deleted first). */
export async function deleteFileUpload(db: Executor, code: string): Promise<void> {
  await db.deleteFrom('file_upload').where('code', '=', code).execute();
}
