import type { ConversionFileRow, ConversionTaskRow, ConversionTaskStatus, Executor } from '@xcad/db';
import { CONVERTER_PRODUCT_ID } from '@xcad/protocol';

// All SQL of the upload side of conversions (tables conversion_task, conversion_file,
// conversion_chunk). State changes are conditional updates that report whether they happened, so
// two requests racing (the last two chunks of a file, a cancel during an upload) change a row once.

/** Who asks about a task (decision 0029): a task is theirs by its user, its visitor cookie or its tasktoken. */
export interface Viewer {
  /** The signed-in user. */
  userId: number | null;
  /** SHA-256 hex of the browser's visitor cookie, when it sent one. */
  visitorHash: string | null;
  /** SHA-256 hex of the tasktoken the caller gave, when it gave one. */
  tokenHash: string | null;
}

export async function isConverterMember(db: Executor, userId: number, now: number): Promise<boolean> {
  const row = await db
    .selectFrom('membership')
    .select('auth_value')
    .where('user_id', '=', userId)
    .where('product_id', '=', CONVERTER_PRODUCT_ID)
    .where('auth_value', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

export interface NewTask {
  tasktag: string;
  token_hash: string;
  device_id: string;
  user_id: number | null;
  visitor_hash: string | null;
  tier: ConversionTaskRow['tier'];
  tasktype: string;
  output_ext: string;
  file_version: string | null;
  options: string;
  filecount: number;
  max_file_bytes: number;
  created_at: number;
  upload_deadline: number;
  expires_at: number;
}

/** The task and one row per file, in one transaction the caller owns. */
export async function insertTask(db: Executor, task: NewTask, names: readonly string[]): Promise<void> {
  await db
    .insertInto('conversion_task')
    .values({ ...task, updated_at: task.created_at })
    .execute();
  await db
    .insertInto('conversion_file')
    .values(names.map((name, fileindex) => ({ tasktag: task.tasktag, fileindex, name })))
    .execute();
}

export async function taskByTag(db: Executor, tasktag: string): Promise<ConversionTaskRow | undefined> {
  return db.selectFrom('conversion_task').selectAll().where('tasktag', '=', tasktag).executeTakeFirst();
}

export async function fileOf(db: Executor, tasktag: string, fileindex: number): Promise<ConversionFileRow | undefined> {
  return db.selectFrom('conversion_file').selectAll().where('tasktag', '=', tasktag).where('fileindex', '=', fileindex).executeTakeFirst();
}

export async function filesOf(db: Executor, tasktags: readonly string[]): Promise<ConversionFileRow[]> {
  if (tasktags.length === 0) return [];
  return db
    .selectFrom('conversion_file')
    .selectAll()
    .where('tasktag', 'in', [...tasktags])
    .orderBy('tasktag')
    .orderBy('fileindex')
    .execute();
}

/** Sets a file's chunk count from the first chunk that names it; later chunks must agree. */
export async function claimChunkCount(db: Executor, tasktag: string, fileindex: number, chunks: number): Promise<void> {
  await db
    .updateTable('conversion_file')
    .set({ chunks })
    .where('tasktag', '=', tasktag)
    .where('fileindex', '=', fileindex)
    .where('chunks', 'is', null)
    .execute();
}

export async function setFileKind(db: Executor, tasktag: string, fileindex: number, kind: string): Promise<void> {
  await db.updateTable('conversion_file').set({ kind }).where('tasktag', '=', tasktag).where('fileindex', '=', fileindex).execute();
}

export async function setFileSize(db: Executor, tasktag: string, fileindex: number, size: number): Promise<void> {
  await db
    .updateTable('conversion_file')
    .set({ size })
    .where('tasktag', '=', tasktag)
    .where('fileindex', '=', fileindex)
    .where('state', '=', 'uploading')
    .execute();
}

export interface ChunkRecord {
  tasktag: string;
  fileindex: number;
  chunk: number;
  size: number;
  storage_key: string;
  received_at: number;
}

/** Records a chunk; a retried one replaces the earlier record. */
export async function upsertChunk(db: Executor, chunk: ChunkRecord): Promise<void> {
  await db
    .insertInto('conversion_chunk')
    .values(chunk)
    .onConflict((conflict) =>
      conflict
        .columns(['tasktag', 'fileindex', 'chunk'])
        .doUpdateSet({ size: chunk.size, storage_key: chunk.storage_key, received_at: chunk.received_at }),
    )
    .execute();
}

/** The chunks of one file in order, or of several tasks' files. */
export async function chunksOf(db: Executor, tasktags: readonly string[], fileindex?: number): Promise<ChunkRecord[]> {
  if (tasktags.length === 0) return [];
  let query = db
    .selectFrom('conversion_chunk')
    .selectAll()
    .where('tasktag', 'in', [...tasktags]);
  if (fileindex !== undefined) query = query.where('fileindex', '=', fileindex);
  const rows = await query.orderBy('tasktag').orderBy('fileindex').orderBy('chunk').execute();
  return rows.map((row) => ({ ...row, size: Number(row.size), received_at: Number(row.received_at) }));
}

export async function deleteChunk(db: Executor, chunk: Pick<ChunkRecord, 'tasktag' | 'fileindex' | 'chunk'>): Promise<void> {
  await db
    .deleteFrom('conversion_chunk')
    .where('tasktag', '=', chunk.tasktag)
    .where('fileindex', '=', chunk.fileindex)
    .where('chunk', '=', chunk.chunk)
    .execute();
}

export async function deleteChunkRows(db: Executor, tasktag: string, fileindex?: number): Promise<void> {
  let query = db.deleteFrom('conversion_chunk').where('tasktag', '=', tasktag);
  if (fileindex !== undefined) query = query.where('fileindex', '=', fileindex);
  await query.execute();
}

/** A file's upload is whole: its assembled input is stored. False when another request did it first. */
export async function completeFile(db: Executor, tasktag: string, fileindex: number, inputKey: string, size: number): Promise<boolean> {
  const result = await db
    .updateTable('conversion_file')
    .set({ state: 'waiting', input_key: inputKey, size })
    .where('tasktag', '=', tasktag)
    .where('fileindex', '=', fileindex)
    .where('state', '=', 'uploading')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function failFile(db: Executor, tasktag: string, fileindex: number, reason: string, retryable: boolean): Promise<void> {
  await db
    .updateTable('conversion_file')
    .set({ state: 'failed', reason, retryable: retryable ? 1 : 0 })
    .where('tasktag', '=', tasktag)
    .where('fileindex', '=', fileindex)
    .execute();
}

/** Fails a file still uploading (a refused upload); false when it was no longer uploading. */
export async function failUploadingFile(db: Executor, tasktag: string, fileindex: number, reason: string): Promise<boolean> {
  const result = await db
    .updateTable('conversion_file')
    .set({ state: 'failed', reason, retryable: 0 })
    .where('tasktag', '=', tasktag)
    .where('fileindex', '=', fileindex)
    .where('state', '=', 'uploading')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function filesStillUploading(db: Executor, tasktag: string): Promise<number> {
  const row = await db
    .selectFrom('conversion_file')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('tasktag', '=', tasktag)
    .where('state', '=', 'uploading')
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** Moves a task on from one of `from`; false when it was no longer in one of them. */
export async function moveTask(
  db: Executor,
  tasktag: string,
  from: readonly ConversionTaskStatus[],
  to: { status: ConversionTaskStatus; reason?: string | null; progress?: number },
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('conversion_task')
    .set({
      status: to.status,
      updated_at: now,
      ...(to.reason === undefined ? {} : { reason: to.reason }),
      ...(to.progress === undefined ? {} : { progress: to.progress }),
    })
    .where('tasktag', '=', tasktag)
    .where('status', 'in', [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A page of the tasks of a user and of a visitor cookie, newest first, while their files are kept. */
export async function ownedTasks(
  db: Executor,
  owner: { userId: number | null; visitorHash: string | null },
  limit: number,
  offset: number,
): Promise<{ tasks: ConversionTaskRow[]; total: number }> {
  const { userId, visitorHash } = owner;
  if (userId === null && visitorHash === null) return { tasks: [], total: 0 };
  const base = db
    .selectFrom('conversion_task')
    .where('purged_at', 'is', null)
    .where((eb) =>
      eb.or([
        ...(userId === null ? [] : [eb('user_id', '=', userId)]),
        ...(visitorHash === null ? [] : [eb('visitor_hash', '=', visitorHash)]),
      ]),
    );
  const [tasks, count] = await Promise.all([
    base.selectAll().orderBy('created_at', 'desc').orderBy('tasktag').limit(limit).offset(offset).execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirst(),
  ]);
  return { tasks, total: Number(count?.count ?? 0) };
}

/** Tasks whose retention ended and whose files are still stored. */
export async function tasksToPurge(db: Executor, now: number, limit: number): Promise<ConversionTaskRow[]> {
  return db
    .selectFrom('conversion_task')
    .selectAll()
    .where('purged_at', 'is', null)
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
}

export async function markPurged(db: Executor, tasktag: string, now: number): Promise<void> {
  await db.updateTable('conversion_task').set({ purged_at: now, updated_at: now }).where('tasktag', '=', tasktag).execute();
}

/** Uploads never finished in time. */
export async function abandonedUploads(db: Executor, now: number, limit: number): Promise<ConversionTaskRow[]> {
  return db
    .selectFrom('conversion_task')
    .selectAll()
    .where('status', '=', 'uploading')
    .where('upload_deadline', '<=', now)
    .orderBy('upload_deadline')
    .limit(limit)
    .execute();
}

/** The session a file-service token (X-Auth-Token) belongs to, with its user's status. */
export async function fileTokenSession(
  db: Executor,
  fileTokenHash: string,
): Promise<{ user_id: number; expires_at: number; revoked_at: number | null; status: string } | undefined> {
  return db
    .selectFrom('user_session')
    .innerJoin('app_user', 'app_user.id', 'user_session.user_id')
    .select(['user_session.user_id', 'user_session.expires_at', 'user_session.revoked_at', 'app_user.status'])
    .where('user_session.file_token_hash', '=', fileTokenHash)
    .executeTakeFirst();
}
