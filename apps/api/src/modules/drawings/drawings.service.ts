import type { Drawing } from '@xcad/db';
import {
  ApiError,
  DRAWING_ERRORS,
  DRAWING_LIBRARY_PRODUCT_ID,
  DRAWING_LIST_LIMITS,
  DRAWING_MESSAGES,
  drawingFileName,
  drawingFileUrl,
  productMembership,
  type TDrawingDetail,
  type TDrawingList,
  type TDrawingListItem,
  type TDrawingListQuery,
} from '@xcad/protocol';
import type { StoredObject } from '../../storage';
import { resolveSignedIn } from '../auth/session.service';
import type { SiteDeps } from '../site-deps';
import {
  categoriesWithCounts,
  categoryNames,
  countDrawings,
  findDrawing,
  incrementDownloads,
  incrementViews,
  listDrawings,
  membershipExpiry,
  relatedDrawings,
  type DrawingFilter,
} from './drawings.repository';

// The drawing library's rules (decision 0012): listing with filters and search, the detail with related
// drawings, and who may download what: free drawings anyone, member drawings only a signed-in user
// whose membership of product 203 has not expired (spec §4, §6).

type DrawingErrorKind = keyof typeof DRAWING_ERRORS;

export function drawingError(kind: DrawingErrorKind, userMessage: string, logMessage?: string): ApiError {
  const { code, status } = DRAWING_ERRORS[kind];
  return new ApiError({ code, httpStatus: status, userMessage, logMessage: logMessage ?? userMessage });
}

const SHANGHAI_OFFSET_MS = 8 * 3600 * 1000;

/** Epoch seconds as the Beijing calendar day, YYYY-MM-DD. */
function shanghaiDay(epochSeconds: number): string {
  return new Date(epochSeconds * 1000 + SHANGHAI_OFFSET_MS).toISOString().slice(0, 10);
}

function listItemOf(row: Drawing, names: ReadonlyMap<string, string>): TDrawingListItem {
  return {
    id: Number(row.id),
    slug: row.slug,
    title: row.title,
    category: { slug: row.category_slug, name: names.get(row.category_slug) ?? row.category_slug },
    tags: row.tags === '' ? [] : row.tags.split(','),
    format: row.format,
    version: row.version,
    sizeBytes: Number(row.size_bytes),
    preview: row.preview,
    isMemberOnly: Number(row.member_only) === 1,
    views: Number(row.views),
    downloads: Number(row.downloads),
    date: shanghaiDay(Number(row.published_at)),
  };
}

export interface DrawingDownload {
  object: StoredObject;
  fileName: string;
  isMemberOnly: boolean;
}

export function createDrawingsService(deps: SiteDeps) {
  const { db, storage } = deps;
  const nowSeconds = (): number => Math.floor(deps.clock() / 1000);

  async function findOrThrow(id: number): Promise<Drawing> {
    const row = Number.isSafeInteger(id) ? await findDrawing(db, id) : undefined;
    if (row === undefined) throw drawingError('notFound', DRAWING_MESSAGES.notFound, `no drawing ${id}`);
    return row;
  }

  /** Throws 401/403 unless the session cookie's user is a member of product 203 now. */
  async function checkMembership(usertoken: string | undefined): Promise<void> {
    if (usertoken === undefined) throw drawingError('signInRequired', DRAWING_MESSAGES.signInRequired, 'member drawing without a session');
    const now = nowSeconds();
    let userId: number;
    try {
      userId = (await resolveSignedIn(db, { usertoken }, now)).user.id;
    } catch (error) {
      if (error instanceof ApiError)
        throw drawingError('signInRequired', DRAWING_MESSAGES.signInRequired, `member drawing: ${error.logMessage}`);
      throw error;
    }
    const expiry = await membershipExpiry(db, userId, DRAWING_LIBRARY_PRODUCT_ID);
    if (productMembership(expiry, now).status !== 'member') {
      throw drawingError(
        'membershipRequired',
        DRAWING_MESSAGES.membershipRequired,
        `user ${userId} is not a member of ${DRAWING_LIBRARY_PRODUCT_ID}`,
      );
    }
  }

  return {
    async list(query: TDrawingListQuery): Promise<TDrawingList> {
      const categories = await categoriesWithCounts(db);
      if (query.category !== undefined && !categories.some((category) => category.slug === query.category)) {
        throw drawingError('invalidParam', DRAWING_MESSAGES.unknownCategory(query.category));
      }
      const filter: DrawingFilter = {
        categorySlug: query.category,
        format: query.format,
        isMemberOnly: query.access === undefined ? undefined : query.access === 'member',
        words: query.q === '' ? [] : query.q.split(' '),
      };
      const total = await countDrawings(db, filter);
      const offset = (query.page - 1) * query.perPage;
      const rows = offset < total ? await listDrawings(db, filter, query.perPage, offset) : [];
      const names = new Map(categories.map((category) => [category.slug, category.name]));
      return {
        total,
        totalPages: Math.ceil(total / query.perPage),
        page: query.page,
        perPage: query.perPage,
        items: rows.map((row) => listItemOf(row, names)),
        categories,
      };
    },

    async detail(id: number): Promise<TDrawingDetail> {
      const row = await findOrThrow(id);
      const [names, related] = await Promise.all([
        categoryNames(db),
        relatedDrawings(db, row.category_slug, Number(row.id), DRAWING_LIST_LIMITS.related),
      ]);
      const item = listItemOf(row, names);
      return {
        ...item,
        description: row.description,
        credit: row.credit,
        fileUrl: drawingFileUrl(item.id),
        fileName: drawingFileName(item.title, item.format),
        related: related.map((other) => listItemOf(other, names)),
      };
    },

    /** The stored file of drawing `id` if the visitor may have it (401/403/404 otherwise). */
    async download(id: number, usertoken: string | undefined): Promise<DrawingDownload> {
      const row = await findOrThrow(id);
      const isMemberOnly = Number(row.member_only) === 1;
      if (isMemberOnly) await checkMembership(usertoken);
      const object = await storage.stat(row.file_key);
      if (object === undefined) {
        deps.log.error({ drawing: id, key: row.file_key }, 'drawing file missing from storage');
        throw drawingError('fileMissing', DRAWING_MESSAGES.fileMissing, `file ${row.file_key} missing`);
      }
      return { object, fileName: drawingFileName(row.title, row.format), isMemberOnly };
    },

    async countDownload(id: number): Promise<void> {
      await incrementDownloads(db, id);
    },

    async countView(id: number): Promise<number> {
      const views = Number.isSafeInteger(id) ? await incrementViews(db, id) : undefined;
      if (views === undefined) throw drawingError('notFound', DRAWING_MESSAGES.notFound, `view of unknown drawing ${id}`);
      return views;
    },
  };
}
