import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { DRAWING_MESSAGES, DRAWINGS_API_PREFIX, parseDrawingListQuery } from '@xcad/protocol';
import { sendStored } from '../../storage';
import type { SiteRoutesOptions } from '../site-deps';
import { createDrawingsService, drawingError } from './drawings.service';

// The drawing library (decision 0012, /dwglist and /dwgItem/{id}): unsigned routes under /api/site/drawings.
//   GET  /api/site/drawings?category=&format=&access=free|member&q=&page=&per_page=   the list
//   GET  /api/site/drawings/{id}                                                      detail + related
//   GET  /api/site/drawings/{id}/file   (and HEAD)   the file: free to anyone, member drawings to
//        members of product 203 (session cookie), else 401/403 {code, message}
//   POST /api/site/drawings/{id}/view   counts a visit (the page calls it once per visit)

const LIST_CACHE_CONTROL = 'public, max-age=30, s-maxage=30';
const ID_PATTERN = /^[1-9]\d{0,14}$/;

function idOf(request: FastifyRequest<{ Params: { id: string } }>): number {
  const { id } = request.params;
  if (!ID_PATTERN.test(id))
    throw drawingError('notFound', DRAWING_MESSAGES.notFound, `malformed drawing id ${JSON.stringify(id.slice(0, 40))}`);
  return Number(id);
}

export const drawingsRoutes: FastifyPluginAsync<SiteRoutesOptions> = async (app, { deps }) => {
  const drawings = createDrawingsService(deps);

  app.get<{ Querystring: Record<string, unknown> }>(DRAWINGS_API_PREFIX, async (request, reply) => {
    const parsed = parseDrawingListQuery(request.query);
    if (!parsed.ok) throw drawingError('invalidParam', parsed.message);
    const list = await drawings.list(parsed.query);
    return reply.header('cache-control', LIST_CACHE_CONTROL).send(list);
  });

  app.get<{ Params: { id: string } }>(`${DRAWINGS_API_PREFIX}/:id`, async (request, reply) => {
    const detail = await drawings.detail(idOf(request));
    return reply.header('cache-control', LIST_CACHE_CONTROL).send(detail);
  });

  app.get<{ Params: { id: string } }>(`${DRAWINGS_API_PREFIX}/:id/file`, async (request, reply) => {
    const id = idOf(request);
    const download = await drawings.download(id, request.usertoken);
    // Member files must never sit in a shared cache, nor be replayed from the browser's.
    const cacheControl = download.isMemberOnly ? 'private, no-store' : 'public, max-age=86400';
    // A download is a whole file asked for: not a HEAD, a revalidation that may end in 304, nor
    // the continuation of a resumed download. Counted before sending, so the count is committed
    // by the time the visitor has the file.
    const range = request.headers.range;
    const isWholeFile =
      request.method === 'GET' &&
      request.headers['if-none-match'] === undefined &&
      request.headers['if-modified-since'] === undefined &&
      (range === undefined || /^bytes=0-/.test(range.trim()));
    if (isWholeFile) await drawings.countDownload(id);
    reply.header('x-robots-tag', 'noindex');
    sendStored(request, reply, deps.storage, download.object, { downloadName: download.fileName, cacheControl });
    return reply;
  });

  app.post<{ Params: { id: string } }>(`${DRAWINGS_API_PREFIX}/:id/view`, async (request, reply) => {
    const views = await drawings.countView(idOf(request));
    return reply.header('cache-control', 'no-store').send({ views });
  });
};
