import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  CONVERSION_LIMITS,
  CONVERSION_MESSAGES,
  TASK_STATE_CODES,
  TASK_TOOLS,
  type TInputKind,
  type TTaskStatus,
  type TTaskType,
} from '@xcad/protocol';
import type { ConversionTier } from '@xcad/db';

// The rules of conversion uploads that need no database (decision 0019): what a file is by its first
// bytes, the tiers' limits, the day a task counts against, what taskstate tells the user, and the
// keyed signatures of download links and share codes. Pure, so each is tested on its own.

const BEIJING_OFFSET_SECONDS = 8 * 3_600;
const DAY_SECONDS = 86_400;

/** How many leading bytes of a file's first chunk are read to tell what it is. */
export const SNIFF_BYTES = 4_096;

const BINARY_DXF = Buffer.from('AutoCAD Binary DXF\r\n\x1a\0', 'latin1');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** A text DXF opens with group 0 SECTION, after any 999 comment groups (and a BOM some tools write). */
function isTextDxf(head: Buffer): boolean {
  const body = head.subarray(0, UTF8_BOM.length).equals(UTF8_BOM) ? head.subarray(UTF8_BOM.length) : head;
  const lines = body.toString('latin1').split(/\r?\n/);
  for (let index = 0; index + 1 < lines.length; index += 2) {
    const code = (lines[index] ?? '').trim();
    if (code === '999') continue;
    return code === '0' && (lines[index + 1] ?? '').trim() === 'SECTION';
  }
  return false;
}

/**
 * What a file is by its leading bytes, never by its name: DWG (AC10xx version magic), DXF (text
 * or binary), PDF (`%PDF-` within the first 1024 bytes, as readers allow); null for anything else.
 */
export function sniffInputKind(bytes: Uint8Array): TInputKind | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, SNIFF_BYTES));
  if (/^AC10\d\d/.test(head.subarray(0, 6).toString('latin1'))) return 'dwg';
  if (head.subarray(0, BINARY_DXF.length).equals(BINARY_DXF)) return 'dxf';
  if (isTextDxf(head)) return 'dxf';
  if (head.subarray(0, 1024).includes('%PDF-', 0, 'latin1')) return 'pdf';
  if (head.subarray(0, PNG.length).equals(PNG)) return 'png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpg';
  return null;
}

/** The file types a tool takes, as the wrong-type message names them (DWG或DXF, PDF). */
export function expectedTypesOf(tool: TTaskType): string {
  return TASK_TOOLS[tool].inputs.map((kind) => kind.toUpperCase()).join('或');
}

/** A file the tool converts, or one it takes as a drawing's picture. */
export function acceptsKind(tool: TTaskType, kind: TInputKind | null): boolean {
  return kind !== null && (TASK_TOOLS[tool].inputs.includes(kind) || TASK_TOOLS[tool].companions.includes(kind));
}

/** The largest file of a task: the tier's, or less when the client asked so (`limitsize`, KB). */
export function maxFileBytesOf(tier: ConversionTier, limitsizeKb: number | undefined): number {
  const tierMax = CONVERSION_LIMITS[tier].maxFileBytes;
  return limitsizeKb === undefined ? tierMax : Math.min(tierMax, limitsizeKb * 1024);
}

/** The job priority of a tier: members' conversions run first. */
export function jobPriorityOf(tier: ConversionTier): number {
  return tier === 'member' ? 10 : 0;
}

/** Whole megabytes for the too-large message. */
export function megabytesOf(bytes: number): number {
  return Math.max(1, Math.floor(bytes / (1024 * 1024)));
}

/** The start of the Beijing calendar day of `nowSeconds`: tasks per day count from there. */
export function beijingDayStart(nowSeconds: number): number {
  return Math.floor((nowSeconds + BEIJING_OFFSET_SECONDS) / DAY_SECONDS) * DAY_SECONDS - BEIJING_OFFSET_SECONDS;
}

/** spec §8 task state codes: done, still going (uploading, queued, converting), failed or cancelled. */
export function stateCodeOf(status: TTaskStatus): number {
  if (status === 'done') return TASK_STATE_CODES.done[0];
  if (status === 'failed' || status === 'cancelled') return TASK_STATE_CODES.failed[0];
  return TASK_STATE_CODES.processing[0];
}

export interface FileProgress {
  /** Chunks the file will have (null until its first chunk arrives). */
  chunks: number | null;
  /** Chunks in so far. */
  received: number;
  /** The file's conversion has ended (done or failed). */
  finished: boolean;
  /** The file converted (done). */
  converted: boolean;
}

/** While uploading: the share of chunks in, over every file (a file not started counts as 0), below 100. */
export function uploadProgressOf(files: readonly FileProgress[]): number {
  if (files.length === 0) return 0;
  const sum = files.reduce(
    (total, file) => total + (file.chunks === null || file.chunks === 0 ? 0 : Math.min(1, file.received / file.chunks)),
    0,
  );
  return Math.min(99, Math.floor((sum / files.length) * 100));
}

/** What taskstate and the sweep tell users beyond the protocol's CONVERSION_MESSAGES. */
export const TASK_LINES = {
  uploading: '上传中',
  queued: '排队中',
  processing: (current: number, total: number) => `正在转换 ${current}/${total}`,
  done: '转换完成',
  partlyDone: (converted: number, total: number) => `转换完成：${total}个文件中${converted}个转换成功`,
  failed: '转换失败',
  uploadTimedOut: '上传超时，请重新上传文件',
} as const;

/** The line taskstate shows: 上传中, 排队中, 正在转换 2/3, 转换完成, or why it failed. */
export function statusDetailOf(status: TTaskStatus, files: readonly FileProgress[], reason: string | null): string {
  switch (status) {
    case 'uploading':
      return TASK_LINES.uploading;
    case 'queued':
      return TASK_LINES.queued;
    case 'processing': {
      const finished = files.filter((file) => file.finished).length;
      return TASK_LINES.processing(Math.min(files.length, finished + 1), files.length);
    }
    case 'done': {
      // Decision 0036: a task with some files failed says how many of its files converted.
      const converted = files.filter((file) => file.converted).length;
      return converted < files.length ? TASK_LINES.partlyDone(converted, files.length) : TASK_LINES.done;
    }
    case 'cancelled':
      return CONVERSION_MESSAGES.cancelled;
    case 'failed':
      return reason ?? TASK_LINES.failed;
  }
}

// --- Signatures ------------------------------------------------------------------------------

/** The key of download links and share codes, kept apart from request signing's own use of the secret. */
export function downloadKeyOf(secret: string): Buffer {
  return createHmac('sha256', secret).update('conversion-download').digest();
}

/** Where taskdown's signed, expiring result link points: `RESULT_PATH_PREFIX + tasktag + ?expires=..&sig=..`. */
export const RESULT_PATH_PREFIX = '/api/file/result/';

/** The `sig` of `/api/file/result/{tasktag}?expires=..`, or of one file's `/api/file/result/{tasktag}/{fileindex}?..` (decision 0036). */
export function downloadSignatureOf(key: Buffer, tasktag: string, expires: number, fileindex?: number): string {
  const target = fileindex === undefined ? tasktag : `${tasktag}/${fileindex}`;
  return createHmac('sha256', key).update(`result:${target}:${expires}`).digest('base64url');
}

/** The code of a task's phone page (`/share.html?tasktag=..&code=..`); good while the task is kept. */
export function shareCodeOf(key: Buffer, tasktag: string): string {
  return createHmac('sha256', key).update(`share:${tasktag}`).digest('base64url').slice(0, 16);
}

/** Compares a given text with the expected one in constant time (for equal lengths). */
export function isSameText(given: string, expected: string): boolean {
  const left = Buffer.from(given, 'utf8');
  const right = Buffer.from(expected, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

// --- Storage keys ----------------------------------------------------------------------------

/** Everything a task stores lives under this folder (uploads, chunks, and the jobs' outputs). */
export function taskPrefixOf(tasktag: string): string {
  return `conversion/${tasktag}/`;
}

export function chunkKeyOf(tasktag: string, fileindex: number, chunk: number): string {
  return `${taskPrefixOf(tasktag)}chunks/${fileindex}/${chunk}`;
}

export function inputKeyOf(tasktag: string, fileindex: number): string {
  return `${taskPrefixOf(tasktag)}in/${fileindex}`;
}
