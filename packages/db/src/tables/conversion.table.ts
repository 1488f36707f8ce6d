import type { Generated, Selectable } from 'kysely';

// Decision 0019: online conversion (migration 2026-11-22T0600_conversion). Epochs in seconds, sizes in
// bytes. Who writes what: the upload side (conversion.service) creates tasks, files and chunks and
// moves a task from `uploading` to `queued`; the job runner moves it on (`processing`, `done`,
// `failed`) and writes the files' outputs; cancel and the retention sweep may end it at any time.

export type ConversionTier = 'visitor' | 'member';
export type ConversionTaskStatus = 'uploading' | 'queued' | 'processing' | 'done' | 'failed' | 'cancelled';
/** `attached`: a picture the task's drawings were drawn with (not converted itself). */
export type ConversionFileState = 'uploading' | 'waiting' | 'converting' | 'done' | 'failed' | 'attached';
export type ConversionJobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface ConversionTaskTable {
  /** Unguessable id (128 random bits, base64url). */
  tasktag: string;
  /** SHA-256 hex of the tasktoken that authorises uploads. */
  token_hash: string;
  /** The device that created it (spec §3 device id): recorded, never a proof of ownership. */
  device_id: string;
  /** The signed-in user who created it: they may see it. */
  user_id: number | null;
  /** SHA-256 hex of the visitor cookie of the browser that created a visitor's task: it may see it (decision 0029). */
  visitor_hash: string | null;
  tier: ConversionTier;
  tasktype: string;
  output_ext: string;
  /** cad2ver's target version. */
  file_version: string | null;
  /** The parsed `parainfo` as JSON. */
  options: Generated<string>;
  filecount: number;
  max_file_bytes: number;
  status: Generated<ConversionTaskStatus>;
  progress: Generated<number>;
  /** Why it failed, in Chinese. */
  reason: string | null;
  /** The download: the single output, or a zip of several. */
  result_key: string | null;
  result_name: string | null;
  result_size: number | null;
  created_at: number;
  updated_at: number;
  /** An upload not finished by then is abandoned. */
  upload_deadline: number;
  /** Retention: files are deleted after this. */
  expires_at: number;
  /** When the sweep deleted its files. */
  purged_at: number | null;
}

export interface ConversionFileTable {
  tasktag: string;
  fileindex: number;
  name: string;
  /** Known from the first chunk that arrives. */
  chunks: number | null;
  /** Bytes received so far (the whole size once complete). */
  size: Generated<number>;
  /** dwg, dxf or pdf by content, once the first chunk is in. */
  kind: string | null;
  /** The assembled upload. */
  input_key: string | null;
  state: Generated<ConversionFileState>;
  reason: string | null;
  /** 0/1: a failure that converting again may cure (a timeout, a worker that died; decision 0036). */
  retryable: Generated<number>;
  /** JSON { summary, changes } of a converted file (decision 0036; migration 2026-11-29T1300_conversion-file-report). */
  report: string | null;
  output_key: string | null;
  output_name: string | null;
  output_size: number | null;
}

export interface ConversionChunkTable {
  tasktag: string;
  fileindex: number;
  chunk: number;
  size: number;
  storage_key: string;
  received_at: number;
}

export interface ConversionJobTable {
  id: Generated<number>;
  tasktag: string;
  status: Generated<ConversionJobStatus>;
  /** Members' tasks first. */
  priority: Generated<number>;
  attempts: Generated<number>;
  /** Not before (back-off after a transient failure). */
  run_after: number;
  /** The worker holding it, until `locked_until`; a worker that died lets it go when that passes. */
  locked_by: string | null;
  locked_until: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

/** An upload of the second upload client (spec §7 create-upload; migration 2026-11-29T1000_file-upload). */
export interface FileUploadTable {
  /** Unguessable id (128 random bits, base64url): the `code` of /api/file/upload. */
  code: string;
  user_id: number;
  name: string;
  size: number;
  chunksize: number;
  chunks: number;
  /** Distinct chunks stored so far (a row of file_upload_chunk each). */
  received: Generated<number>;
  created_at: number;
  expires_at: number;
  completed_at: number | null;
}

/** A chunk of a file upload that is stored: a retried chunk finds its row and is not counted again. */
export interface FileUploadChunkTable {
  code: string;
  chunknum: number;
}

export interface ConversionTables {
  conversion_task: ConversionTaskTable;
  conversion_file: ConversionFileTable;
  conversion_chunk: ConversionChunkTable;
  conversion_job: ConversionJobTable;
  file_upload: FileUploadTable;
  file_upload_chunk: FileUploadChunkTable;
}

export type ConversionTaskRow = Selectable<ConversionTaskTable>;
export type ConversionFileRow = Selectable<ConversionFileTable>;
export type ConversionJobRow = Selectable<ConversionJobTable>;
export type FileUploadRow = Selectable<FileUploadTable>;
