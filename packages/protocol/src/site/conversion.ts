import { z } from 'zod';
import { ZSignedIn } from '../auth';
import { UPLOAD } from '../constants';
import { defineEndpoint, type Endpoint } from '../endpoint';
import { successOf } from '../envelope';
import type { CodeGroup } from '../errors';
import { zLine } from '../input';

// Decision 0019: online conversion. The spec (§7, §8, §9) names uploadpar, uploadfile, taskstate,
// taskdown and sitetaskdownqrcode with some of their fields, the chunk size (50 MB), limitsize
// (51200, in KB), isshare 0, downtype 2, the 2 s poll and the codes 11000 (continue), 10000/19000
// (done) and 18000/19026 (failed). Everything else here is ours (decision 0019): the task and
// file states, the options in `parainfo`, the limits of visitors and members, the cancel and list
// calls, and the messages.

export const TASK_TYPES = ['cad2pdf', 'cad2jpg', 'cad2ver', 'pdf2cad'] as const;
export type TTaskType = (typeof TASK_TYPES)[number];

export const OUTPUT_EXTENSIONS = ['pdf', 'png', 'jpg', 'dxf', 'dwg'] as const;
export type TOutputExtension = (typeof OUTPUT_EXTENSIONS)[number];

/** What a file is, judged by its bytes (never by its name). PNG and JPEG come as a drawing's pictures. */
export const INPUT_KINDS = ['dwg', 'dxf', 'pdf', 'png', 'jpg'] as const;
export type TInputKind = (typeof INPUT_KINDS)[number];

/** The target versions of cad2ver and pdf2cad (`fileversion`). */
export const CAD_VERSIONS = ['R12', '2000', '2004', '2007', '2010', '2013', '2018'] as const;
export type TCadVersion = (typeof CAD_VERSIONS)[number];

/**
 * The versions a DWG is written in (decision 0023's DWG writer; DXF takes every version). Kept equal to
 * the engine's `DWG_WRITE_VERSIONS` by an API test; the tool page offers only these for DWG.
 */
export const DWG_OUTPUT_VERSIONS: readonly TCadVersion[] = ['2000', '2004', '2007', '2010', '2013', '2018'];

/** The versions a tool page offers for an output format. */
export function cadVersionsFor(format: 'dwg' | 'dxf'): readonly TCadVersion[] {
  return format === 'dwg' ? DWG_OUTPUT_VERSIONS : CAD_VERSIONS;
}

/**
 * Which inputs and outputs each tool takes; the first output is the tool's default. `companions`:
 * files taken only as what the task's drawings refer to (their pictures), never converted
 * themselves; the drawings of a task are each other's external references too.
 */
export const TASK_TOOLS: Record<
  TTaskType,
  { readonly inputs: readonly TInputKind[]; readonly outputs: readonly TOutputExtension[]; readonly companions: readonly TInputKind[] }
> = {
  cad2pdf: { inputs: ['dwg', 'dxf'], outputs: ['pdf'], companions: ['png', 'jpg'] },
  cad2jpg: { inputs: ['dwg', 'dxf'], outputs: ['jpg', 'png'], companions: ['png', 'jpg'] },
  cad2ver: { inputs: ['dwg', 'dxf'], outputs: ['dwg', 'dxf'], companions: [] },
  pdf2cad: { inputs: ['pdf'], outputs: ['dwg', 'dxf'], companions: [] },
};

/** A task as a whole. `uploading` until every chunk of every file is in. */
export const TASK_STATES = ['uploading', 'queued', 'processing', 'done', 'failed', 'cancelled'] as const;
export type TTaskStatus = (typeof TASK_STATES)[number];

export const CONVERSION_LIMITS = {
  /** Per tier: largest file, files per task, tasks a device or user may start per (Beijing) day. */
  visitor: { maxFileBytes: 50 * 1024 * 1024, maxFiles: 3, tasksPerDay: 20 },
  member: { maxFileBytes: 200 * 1024 * 1024, maxFiles: 20, tasksPerDay: 500 },
  /**
   * Free tasks a day from one client address, whatever device ids it sends (decision 0029): five
   * devices' worth, so a small office behind one address converts freely, while a script that
   * invents a device id per request stops here.
   */
  freeTasksPerAddressPerDay: 100,
  /** Largest chunk of uploadfile (spec §9). */
  chunkBytes: UPLOAD.conversionChunkBytes,
  /** Uploads and results are deleted this long after the task was created. */
  retentionSeconds: 24 * 3600,
  /** A task whose upload never finishes is abandoned after this long. */
  uploadTimeoutSeconds: 2 * 3600,
  /** How long a download link (taskdown) and a phone QR stay valid. */
  downloadUrlTtlSeconds: 30 * 60,
  /** A file name is cut to this many characters. */
  fileNameMax: 120,
} as const;

/**
 * The HttpOnly cookie the API gives a browser with its first visitor task: a secret that owns the
 * visitor's tasks (decision 0029), kept a year like the device id beside it.
 */
export const VISITOR_COOKIE = 'xcad_visitor';
export const VISITOR_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 3600;

/** The product whose members get the member tier (spec §6: 202 converter). */
export const CONVERTER_PRODUCT_ID = 202;

export const CONVERSION_MESSAGES = {
  taskType: '不支持的转换类型',
  outputExtension: '不支持的输出格式',
  fileVersion: '请选择要转换到的CAD版本',
  dwgVersion: (written: readonly string[]) => `DWG格式可选择${written.join('、')}版本，其他版本请选择DXF格式`,
  fileCount: '请选择要转换的文件',
  fileName: '文件名无效',
  parainfo: '转换选项无效',
  tooManyFiles: (max: number) => `一次最多转换${max}个文件，开通转换器会员可一次转换更多`,
  tooLarge: (maxMb: number) => `文件超过${maxMb}MB，开通转换器会员可转换更大的文件`,
  tooManyTasks: '今天的免费转换次数已用完，请明天再试或开通转换器会员',
  wrongType: (expected: string) => `文件类型不正确，请上传${expected}文件`,
  taskUnknown: '转换任务不存在或已过期',
  tokenInvalid: '上传凭证无效，请重新上传',
  chunkInvalid: '上传分片无效，请重新上传',
  /** spec §9: 50 MB chunks; only a file's last chunk may be smaller. */
  chunkSize: (chunkMb: number) => `除最后一个分片外，每个分片须为${chunkMb}MB，请重新上传`,
  notDone: '文件还在转换中，请稍后下载',
  expired: '转换结果已过期删除，请重新转换',
  cancelled: '转换已取消',
} as const;

/** Refusals of the conversion calls (codes ours, outside the spec's). */
export const CONVERSION_ERRORS = {
  invalidField: { codes: [10020], message: CONVERSION_MESSAGES.fileCount },
  taskUnknown: { codes: [15001], message: CONVERSION_MESSAGES.taskUnknown },
  tokenInvalid: { codes: [15002], message: CONVERSION_MESSAGES.tokenInvalid },
  chunkInvalid: { codes: [15003], message: CONVERSION_MESSAGES.chunkInvalid },
  tooLarge: { codes: [15004], message: CONVERSION_MESSAGES.tooLarge(50) },
  wrongType: { codes: [15005], message: CONVERSION_MESSAGES.wrongType('CAD') },
  tooManyTasks: { codes: [15006], message: CONVERSION_MESSAGES.tooManyTasks },
  notDone: { codes: [15007], message: CONVERSION_MESSAGES.notDone },
  expired: { codes: [15008], message: CONVERSION_MESSAGES.expired },
} as const satisfies Record<string, CodeGroup>;

// ---------------------------------------------------------------------------------------------
// Options (`parainfo`, JSON): what users of the online tools expect to choose

export const ZConversionOptions = z
  .object({
    /** A layout by name; absent: model space (or the drawing's current layout for PDF). */
    layout: zLine(255).optional(),
    /** Every layout: one PDF page (or one image) each. */
    allLayouts: z.boolean().optional(),
    paper: z.enum(['fit', 'A0', 'A1', 'A2', 'A3', 'A4']).optional(),
    orientation: z.enum(['auto', 'portrait', 'landscape']).optional(),
    color: z.enum(['color', 'gray', 'mono']).optional(),
    /** Images: width in pixels, or DPI on the paper. */
    width: z.number().int().min(64).max(8000).optional(),
    dpi: z.number().int().min(36).max(600).optional(),
    background: z.enum(['white', 'black']).optional(),
    /** pdf2cad: pages like '1-3,5'. */
    pages: z
      .string()
      .regex(/^\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*$/)
      .max(64)
      .optional(),
  })
  .strict();
export type TConversionOptions = z.infer<typeof ZConversionOptions>;

/**
 * `parainfo` on the wire: a JSON text of the options ('' or absent: defaults). The options object
 * itself is taken too: the web's client sends what the schema parsed, and signs it as its JSON.
 */
const ZParainfo = z
  .union([z.string().max(2000), z.record(z.string(), z.unknown())], { error: CONVERSION_MESSAGES.parainfo })
  .optional()
  .transform((given, context): TConversionOptions => {
    if (given === undefined || (typeof given === 'string' && given.trim() === '')) return {};
    let value: unknown = given;
    if (typeof given === 'string') {
      try {
        value = JSON.parse(given);
      } catch {
        value = undefined;
      }
    }
    const options = ZConversionOptions.safeParse(value);
    if (options.success) return options.data;
    context.addIssue({ code: 'custom', message: CONVERSION_MESSAGES.parainfo });
    return z.NEVER;
  });

// eslint-disable-next-line no-control-regex -- the point is to drop control characters
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/**
 * The names of a task's files: `filename` is one name, or a JSON array of `filecount` names.
 * Path parts and control characters are dropped; an empty result is refused.
 */
export function fileNamesOf(filename: string, filecount: number): string[] | null {
  let names: unknown = filename;
  if (filename.trim().startsWith('[')) {
    try {
      names = JSON.parse(filename) as unknown;
    } catch {
      return null;
    }
  }
  const list = Array.isArray(names) ? names : [names];
  if (list.length !== filecount || list.some((name) => typeof name !== 'string')) return null;
  const cleaned = (list as string[]).map((name) =>
    (name.split(/[\\/]/).pop() ?? '').replace(CONTROL_CHARACTERS, '').trim().slice(0, CONVERSION_LIMITS.fileNameMax),
  );
  return cleaned.some((name) => name === '') ? null : cleaned;
}

// ---------------------------------------------------------------------------------------------
// Calls

/** A task's tag as every call names it (the server makes them: 22 base64url characters). */
const ZTaskTag = zLine(64).min(1);

/** spec §7 uploadpar (signed): creates the task. */
export const ZUploadParRequest = ZSignedIn.extend({
  filename: z.string({ error: CONVERSION_MESSAGES.fileName }).min(1, { error: CONVERSION_MESSAGES.fileName }).max(20_000),
  filecount: z.coerce.number({ error: CONVERSION_MESSAGES.fileCount }).int().min(1, { error: CONVERSION_MESSAGES.fileCount }).max(50),
  machineid: zLine(128).optional(),
  tasktype: z.enum(TASK_TYPES, { error: CONVERSION_MESSAGES.taskType }),
  /** KB, as the spec's clients send it (51200); the server applies the smaller of it and the tier's. */
  limitsize: z.coerce.number().int().min(1).max(10_000_000).optional(),
  isshare: z.coerce.number().int().min(0).max(1).optional(),
  outputfileextension: z.enum(OUTPUT_EXTENSIONS, { error: CONVERSION_MESSAGES.outputExtension }),
  fileversion: z.enum(CAD_VERSIONS, { error: CONVERSION_MESSAGES.fileVersion }).optional(),
  parainfo: ZParainfo,
});
export const ZUploadParResponse = successOf({ tasktag: z.string(), tasktoken: z.string(), timestamp: z.number().int() });
export type TUploadParResponse = z.infer<typeof ZUploadParResponse>;

/**
 * The two /api/v4 conversion routes outside the endpoint registry: uploadfile takes a chunk's raw
 * bytes (not a signed body) and sitetaskdownqrcode is a GET the tool pages use as an <img src>.
 */
export const CONVERSION_PATHS = {
  uploadfile: '/api/v4/uploadfile',
  sitetaskdownqrcode: '/api/v4/sitetaskdownqrcode',
} as const;

/** spec §7 uploadfile's query (the body is the chunk's raw bytes; not signed: the tasktoken is the key). */
export const ZUploadFileQuery = z.object({
  tasktag: ZTaskTag,
  timestamp: z.coerce.number().int(),
  tasktoken: zLine(128).min(1),
  fileindex: z.coerce.number().int().min(0).max(49),
  chunks: z.coerce.number().int().min(1).max(10_000),
  chunk: z.coerce.number().int().min(0).max(9_999),
});
export type TUploadFileQuery = z.infer<typeof ZUploadFileQuery>;

/** uploadfile's answer: 11000 and what is still missing, or 10000 once the task is complete and queued. */
export const ZUploadFileResponse = z.looseObject({
  code: z.union([z.literal(10000), z.literal(11000)]),
  message: z.string(),
  tasktag: z.string(),
  /** Chunks received so far of this file, and of the whole task. */
  received: z.number().int(),
  filesdone: z.number().int(),
});
export type TUploadFileResponse = z.infer<typeof ZUploadFileResponse>;

/**
 * How the engine changed an object it wrote in an older version (decision 0036): the engine's save-as
 * report (`@xcad/cad/save-as` SAVE_AS_HOWS, kept equal by an API test once both are in), and
 * `not-drawn` for an object a PDF or image could not show, `ref-<reason>` for a picture or
 * external reference the drawing names that could not be drawn (`@xcad/cad/companions`). A code the site does not know yet is
 * still carried (`how` is any text) and worded by its outcome.
 */
export const FILE_CHANGE_HOWS = [
  'graphics',
  'block',
  'polyline',
  'polyface',
  'text',
  'hatch-lines',
  'solid-fill',
  'nearest-colour',
  'plain-dashes',
  'proxy-graphics',
  'detail',
  'line',
  'frame',
  'not-in-version',
  'no-graphics',
  'broken-input',
  'not-drawn',
  // A picture or external reference the drawing names that did not come with it (decision 0046).
  'ref-not-supplied',
  'ref-unreadable',
  'ref-unsupported-format',
  'ref-cycle',
] as const;

/** One kind of change to a file's objects: `count` objects of `type` (AutoCAD's name) were lowered or dropped this way. */
export const ZFileChange = z.object({
  type: z.string().max(64),
  count: z.number().int().min(1),
  outcome: z.enum(['lowered', 'dropped']),
  how: z.string().max(32),
  /** The files concerned, for a reference the drawing names (type XREF or IMAGE): 'site.dwg'. */
  names: z.array(z.string().max(255)).max(20).optional(),
});
export type TFileChange = z.infer<typeof ZFileChange>;

/** What a converted file holds: the layouts drawn (PDF, images) or written (DWG, DXF), and its objects. */
export const ZFileSummary = z.object({
  layouts: z.array(z.string()),
  objects: z.number().int().min(0),
});
export type TFileSummary = z.infer<typeof ZFileSummary>;

export const ZTaskFile = z.object({
  fileindex: z.number().int(),
  name: z.string(),
  size: z.number().int(),
  /** Chunks in so far and expected (for a resumed upload: which to send). */
  received: z.array(z.number().int()),
  chunks: z.number().int(),
  /** `attached`: a picture the task's drawings were drawn with, not converted itself. */
  state: z.enum(['uploading', 'waiting', 'converting', 'done', 'failed', 'attached']),
  /** Why this file failed, in Chinese. */
  reason: z.string().nullable(),
  /** A failure that converting again may cure (a timeout, a worker that died); false for a wrong type or a broken drawing. */
  retryable: z.boolean(),
  /** Once done: what it holds, and what the target lowered or dropped (dropped first, then by count). */
  summary: ZFileSummary.nullable(),
  changes: z.array(ZFileChange),
  /** The converted file's name and size once done. */
  outputname: z.string().nullable(),
  outputsize: z.number().int().nullable(),
});
export type TTaskFile = z.infer<typeof ZTaskFile>;

export const ZTaskDetails = z.object({
  tasktag: z.string(),
  tasktype: z.enum(TASK_TYPES),
  outputfileextension: z.enum(OUTPUT_EXTENSIONS),
  status: z.enum(TASK_STATES),
  /** 0-100 over upload, queue and conversion. */
  progress: z.number().int().min(0).max(100),
  /** A line for the user (with ifshowtxt), e.g. 正在转换 2/3. */
  statusdetail: z.string(),
  /** Why the task failed, in Chinese; null otherwise. */
  reason: z.string().nullable(),
  files: z.array(ZTaskFile),
  createtime: z.number().int(),
  /** When uploads and results are deleted (retention). */
  expiretime: z.number().int(),
});
export type TTaskDetails = z.infer<typeof ZTaskDetails>;

/**
 * Who may read a task (decision 0029): its signed-in user, the browser whose visitor cookie
 * started it, or whoever holds its `tasktoken` (uploadpar's answer), which clients without
 * cookies send beside the spec's fields. Never the device id: clients choose it.
 */
const ZTaskToken = zLine(128).min(1).optional();

/**
 * spec §7 taskstate (signed). Answers `code` 10000 when done, 20000 while uploading, queued or
 * converting, 18000 when failed or cancelled (spec §8 codes), with the details either way.
 */
export const ZTaskStateRequest = ZSignedIn.extend({
  tasktag: ZTaskTag,
  ifshowtxt: z.coerce.number().int().optional(),
  tasktoken: ZTaskToken,
});
export const ZTaskStateResponse = z.looseObject({ code: z.number().int(), message: z.string(), ...ZTaskDetails.shape });
export type TTaskStateResponse = z.infer<typeof ZTaskStateResponse>;

/** spec §7 taskdown (signed): a signed, expiring URL of the result (a zip for several files). */
export const ZTaskDownRequest = ZSignedIn.extend({
  tasktag: ZTaskTag,
  downtype: z.coerce.number().int().optional(),
  tasktoken: ZTaskToken,
  /** Ours (decision 0036): one converted file of the task by its index, instead of the whole result. */
  fileindex: z.coerce.number().int().min(0).max(49).optional(),
});
export const ZTaskDownResponse = successOf({ downurl: z.string(), filename: z.string(), expiretime: z.number().int() });
export type TTaskDownResponse = z.infer<typeof ZTaskDownResponse>;

/** taskcancel (ours, signed): stops a task at any point; its files are deleted. */
export const ZTaskCancelRequest = ZSignedIn.extend({ tasktag: ZTaskTag, tasktoken: ZTaskToken });
export const ZTaskCancelResponse = successOf({ status: z.enum(TASK_STATES) });

/**
 * tasklist (ours, signed): the signed-in user's tasks and this browser's visitor tasks (its
 * visitor cookie, decision 0029), newest first, while retained. The device id shows nothing.
 */
export const ZTaskListRequest = ZSignedIn.extend({
  page: z.coerce.number().int().min(1).max(100).default(1),
  pagesize: z.coerce.number().int().min(1).max(50).default(20),
});
export const ZTaskListResponse = successOf({ tasks: z.array(ZTaskDetails), total: z.number().int() });
export type TTaskListResponse = z.infer<typeof ZTaskListResponse>;

export const conversionEndpoints = {
  uploadpar: defineEndpoint({ path: '/api/v4/uploadpar', request: ZUploadParRequest, response: ZUploadParResponse }),
  taskstate: defineEndpoint({ path: '/api/v4/taskstate', request: ZTaskStateRequest, response: ZTaskStateResponse }),
  taskdown: defineEndpoint({ path: '/api/v4/taskdown', request: ZTaskDownRequest, response: ZTaskDownResponse }),
  taskcancel: defineEndpoint({ path: '/api/v4/taskcancel', request: ZTaskCancelRequest, response: ZTaskCancelResponse }),
  tasklist: defineEndpoint({ path: '/api/v4/tasklist', request: ZTaskListRequest, response: ZTaskListResponse }),
} satisfies Record<string, Endpoint>;

/** The phone page a task's QR leads to (spec §2 /share.html): the tasktag and a share code. */
export function sharePath(tasktag: string, code: string): string {
  return `/share.html?tasktag=${encodeURIComponent(tasktag)}&code=${encodeURIComponent(code)}`;
}
