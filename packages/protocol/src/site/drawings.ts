import { z } from 'zod';
import type { Endpoint } from '../endpoint';
import { PROTOCOL_ERRORS } from '../envelope';
import { INPUT_MESSAGES, isCleanLine } from '../input';

// Decision 0012: the drawing library (CAD图库, /dwglist and /dwgItem/{id}). Its reads are unsigned public
// GETs under /api/site/drawings (the answers below); downloads of member drawings need membership
// of product 203 (spec §6), checked on the session cookie. Shapes, limits and messages are shared
// by the web and the API. There are no signed calls: whether a visitor may download is answered
// by the file URL itself (HEAD), so the page never trusts a stale local membership state.

export const DRAWINGS_API_PREFIX = '/api/site/drawings';

/** spec §6: the drawing library's product id. */
export const DRAWING_LIBRARY_PRODUCT_ID = 203;

export const DRAWING_FORMATS = ['DWG', 'DXF'] as const;
export type TDrawingFormat = (typeof DRAWING_FORMATS)[number];

/** `access` filter: free drawings, or those for members of product 203. */
export const DRAWING_ACCESS = ['free', 'member'] as const;
export type TDrawingAccess = (typeof DRAWING_ACCESS)[number];

export const DRAWING_LIST_LIMITS = {
  perPageDefault: 12,
  perPageMax: 48,
  /** Longest search text, in characters. */
  queryMaxLength: 50,
  /** Largest page number accepted (beyond it nothing can match anyway). */
  pageMax: 10_000,
  /** Related drawings on a detail page. */
  related: 4,
} as const;

export const CATEGORY_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const DRAWING_MESSAGES = {
  invalidCategory: '分类参数格式不正确',
  unknownCategory: (slug: string) => `没有名为“${slug}”的图纸分类`,
  invalidFormat: '格式只能是 DWG 或 DXF',
  invalidAccess: '权限筛选只能是 free（免费）或 member（会员）',
  invalidPage: `页码必须是 1 到 ${DRAWING_LIST_LIMITS.pageMax} 之间的整数`,
  invalidPerPage: `每页数量必须是 1 到 ${DRAWING_LIST_LIMITS.perPageMax} 之间的整数`,
  queryTooLong: `搜索内容不能超过 ${DRAWING_LIST_LIMITS.queryMaxLength} 个字`,
  repeated: (name: string) => `参数 ${name} 只能出现一次`,
  notFound: '图纸不存在或已下架',
  signInRequired: '该图纸为图库会员专享，请先登录',
  membershipRequired: '该图纸仅限图库会员下载，开通图库会员后即可下载',
  fileMissing: '图纸文件暂时无法下载，请稍后再试',
} as const;

/** The refusals of the library's routes: `{code, message}` with these HTTP statuses. */
export const DRAWING_ERRORS = {
  invalidParam: { code: PROTOCOL_ERRORS.malformed.code, status: 400 },
  notFound: { code: PROTOCOL_ERRORS.notFound.code, status: 404 },
  // The same code as an expired usertoken (decision 0010): sign in and try again.
  signInRequired: { code: 10060, status: 401 },
  membershipRequired: { code: 10403, status: 403 },
  fileMissing: { code: PROTOCOL_ERRORS.internal.code, status: 503 },
} as const;

export interface TDrawingListQuery {
  category: string | undefined;
  format: TDrawingFormat | undefined;
  access: TDrawingAccess | undefined;
  /** Search text, whitespace collapsed; '' for none. */
  q: string;
  page: number;
  perPage: number;
}

export type DrawingQueryResult = { ok: true; query: TDrawingListQuery } | { ok: false; message: string };

function textParam(raw: Readonly<Record<string, unknown>>, name: string): string | { repeated: string } | undefined {
  const value = raw[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return { repeated: DRAWING_MESSAGES.repeated(name) };
  return value.trim();
}

function integerParam(text: string | undefined, max: number, fallback: number): number | undefined {
  if (text === undefined || text === '') return fallback;
  if (!/^\d{1,6}$/.test(text)) return undefined;
  const value = Number(text);
  return value >= 1 && value <= max ? value : undefined;
}

/**
 * Reads the list's query string (`category`, `format`, `access`, `q`, `page`, `per_page`; the web
 * builds its links with the same names). Empty values mean "no filter"; anything else that is
 * not valid answers the message to show, in Chinese.
 */
export function parseDrawingListQuery(raw: Readonly<Record<string, unknown>>): DrawingQueryResult {
  const texts: Record<string, string | undefined> = {};
  for (const name of ['category', 'format', 'access', 'q', 'page', 'per_page']) {
    const value = textParam(raw, name);
    if (typeof value === 'object') return { ok: false, message: value.repeated };
    texts[name] = value;
  }
  const category = texts['category'] || undefined;
  if (category !== undefined && (category.length > 40 || !CATEGORY_SLUG_PATTERN.test(category))) {
    return { ok: false, message: DRAWING_MESSAGES.invalidCategory };
  }
  const formatText = texts['format']?.toUpperCase() || undefined;
  const format = DRAWING_FORMATS.find((candidate) => candidate === formatText);
  if (formatText !== undefined && format === undefined) return { ok: false, message: DRAWING_MESSAGES.invalidFormat };
  const accessText = texts['access'] || undefined;
  const access = DRAWING_ACCESS.find((candidate) => candidate === accessText);
  if (accessText !== undefined && access === undefined) return { ok: false, message: DRAWING_MESSAGES.invalidAccess };
  // Whitespace runs become one space; any other control character is no search text.
  const q = (texts['q'] ?? '').replace(/\s+/g, ' ').trim();
  if (!isCleanLine(q)) return { ok: false, message: INPUT_MESSAGES.characters };
  if (Array.from(q).length > DRAWING_LIST_LIMITS.queryMaxLength) return { ok: false, message: DRAWING_MESSAGES.queryTooLong };
  const page = integerParam(texts['page'], DRAWING_LIST_LIMITS.pageMax, 1);
  if (page === undefined) return { ok: false, message: DRAWING_MESSAGES.invalidPage };
  const perPage = integerParam(texts['per_page'], DRAWING_LIST_LIMITS.perPageMax, DRAWING_LIST_LIMITS.perPageDefault);
  if (perPage === undefined) return { ok: false, message: DRAWING_MESSAGES.invalidPerPage };
  return { ok: true, query: { category, format, access, q, page, perPage } };
}

export const ZDrawingCategory = z.object({
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  /** Drawings in the category (all of them, whatever the other filters). */
  count: z.number().int(),
});
export type TDrawingCategory = z.infer<typeof ZDrawingCategory>;

export const ZDrawingListItem = z.object({
  id: z.number().int(),
  slug: z.string(),
  title: z.string(),
  category: z.object({ slug: z.string(), name: z.string() }),
  tags: z.array(z.string()),
  format: z.enum(DRAWING_FORMATS),
  version: z.string(),
  sizeBytes: z.number().int(),
  /** Public path of the preview image (/content/images/drawings/...). */
  preview: z.string(),
  isMemberOnly: z.boolean(),
  views: z.number().int(),
  downloads: z.number().int(),
  /** Publication day, YYYY-MM-DD (Asia/Shanghai). */
  date: z.string(),
});
export type TDrawingListItem = z.infer<typeof ZDrawingListItem>;

export const ZDrawingList = z.object({
  total: z.number().int(),
  totalPages: z.number().int(),
  page: z.number().int(),
  perPage: z.number().int(),
  items: z.array(ZDrawingListItem),
  categories: z.array(ZDrawingCategory),
});
export type TDrawingList = z.infer<typeof ZDrawingList>;

export const ZDrawingDetail = ZDrawingListItem.extend({
  description: z.string(),
  credit: z.string(),
  /** Where the file is downloaded: `${DRAWINGS_API_PREFIX}/{id}/file`. */
  fileUrl: z.string(),
  /** The name the download is saved under, e.g. 带双车库的独栋住宅一层平面图.dxf. */
  fileName: z.string(),
  related: z.array(ZDrawingListItem),
});
export type TDrawingDetail = z.infer<typeof ZDrawingDetail>;

/** The refusal body of every library route. */
export const ZDrawingError = z.object({ code: z.number().int(), message: z.string() });
export type TDrawingError = z.infer<typeof ZDrawingError>;

export function drawingFileUrl(id: number): string {
  return `${DRAWINGS_API_PREFIX}/${id}/file`;
}

/** A title made safe as a file name on Windows, macOS and Linux, with the format's extension. */
export function drawingFileName(title: string, format: TDrawingFormat): string {
  const base =
    Array.from(title, (character) => (character.charCodeAt(0) < 0x20 || '\\/:*?"<>|'.includes(character) ? '_' : character))
      .join('')
      .replace(/\s+/g, ' ')
      .trim() || 'drawing';
  return `${base}.${format.toLowerCase()}`;
}

export const drawingsEndpoints = {} satisfies Record<string, Endpoint>;
