import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { Executor } from '@xcad/db';
import { SUCCESS_CODE } from '@xcad/protocol';
import { createContentService, type Collection, type ContentService } from './content.service';
import { WpError, invalidPostId, invalidTerm } from './wp-error';
import { WpParams } from './wp-params';
import { parseItemShaping, parsePostsQuery, parseTermsQuery, readCustomPage, readRequiredId } from './wp-queries';

// The WordPress-compatible content API (decision 0011, spec §7 "Blog backend", decision 0011). Unsigned,
// outside /api/v4. Routes do HTTP only: read parameters, call the service, set WordPress's headers.

export interface ContentRoutesOptions {
  db: Executor;
  publicOrigin: string;
}

const NAMESPACE = '/wp-json/wp/v2';
const DIGITS = /^\d+$/;
const EXPOSED_HEADERS = 'X-WP-Total, X-WP-TotalPages, Link';

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

function apiBaseOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}${NAMESPACE}`;
}

/** WordPress's paging links: the same request with `page` changed, on the host the client used. */
function pagingLinks(request: FastifyRequest, page: number, totalPages: number): string | undefined {
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  const linkTo = (target: number, rel: string): string => {
    url.searchParams.set('page', String(target));
    return `<${url.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page > 1) links.push(linkTo(Math.min(page - 1, totalPages), 'prev'));
  if (totalPages > page) links.push(linkTo(page + 1, 'next'));
  return links.length === 0 ? undefined : links.join(', ');
}

function sendCollection(request: FastifyRequest, reply: FastifyReply, collection: Collection, page: number): FastifyReply {
  reply.header('x-wp-total', String(collection.total)).header('x-wp-totalpages', String(collection.totalPages));
  const links = pagingLinks(request, page, collection.totalPages);
  if (links !== undefined) reply.header('link', links);
  return reply.send(collection.items);
}

/** A path id; ids beyond the safe integers cannot exist, so they are simply unknown. */
function pathId(request: FastifyRequest, unknown: () => WpError): number {
  const raw = (request.params as { id?: string }).id ?? '';
  const id = Number(raw);
  if (!DIGITS.test(raw) || !Number.isSafeInteger(id)) throw unknown();
  return id;
}

function paramsOf(request: FastifyRequest): WpParams {
  return new WpParams(request.query, request.body);
}

export const contentRoutes: FastifyPluginAsync<ContentRoutesOptions> = async (app, { db, publicOrigin }) => {
  const content: ContentService = createContentService({ db, publicOrigin });

  // WordPress routes answer with or without a trailing slash (spec §7 writes `newPosts/`).
  function route(methods: HTTPMethods[], path: string, handler: Handler): void {
    for (const url of [`${NAMESPACE}${path}`, `${NAMESPACE}${path}/`]) app.route({ method: methods, url, handler });
  }
  const get = (path: string, handler: Handler): void => route(['GET'], path, handler);

  app.addHook('onRequest', async (_request, reply) => {
    reply.header('access-control-expose-headers', EXPOSED_HEADERS);
  });

  app.setErrorHandler((error: FastifyError | WpError, request, reply) => {
    if (error instanceof WpError) {
      request.log.info({ code: error.code, reason: error.message }, 'content request refused');
      return reply.code(error.status).send(error.toBody());
    }
    // A malformed body on the counter routes is the client's fault; anything else is the app's.
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ code: error.code, reason: error.message }, 'content request refused');
      return reply.code(400).send(new WpError('rest_invalid_json', 'Invalid JSON body passed.', 400).toBody());
    }
    throw error;
  });

  for (const [path, type] of [['/posts', 'post'], ['/pages', 'page']] as const) {
    get(path, async (request, reply) => {
      const query = parsePostsQuery(paramsOf(request));
      return sendCollection(request, reply, await content.listPostCollection(type, query, apiBaseOf(request)), query.page);
    });
    get(`${path}/:id(^\\d+$)`, async (request) => {
      const id = pathId(request, invalidPostId);
      return content.getPost(type, id, parseItemShaping(paramsOf(request)), apiBaseOf(request));
    });
  }

  for (const [path, taxonomy] of [['/categories', 'category'], ['/tags', 'post_tag']] as const) {
    get(path, async (request, reply) => {
      const query = parseTermsQuery(paramsOf(request), taxonomy);
      return sendCollection(request, reply, await content.listTermCollection(query, apiBaseOf(request)), query.page);
    });
    get(`${path}/:id(^\\d+$)`, async (request) => {
      const id = pathId(request, invalidTerm);
      return content.getTerm(taxonomy, id, parseItemShaping(paramsOf(request)), apiBaseOf(request));
    });
  }

  get('/newPosts', async (request) => {
    const params = paramsOf(request);
    const page = readCustomPage(params, 10);
    const categoryId = params.integer('cate_id', { minimum: 1 });
    const title = params.string('post_title');
    params.check();
    return content.newPosts(page, { categoryId, title });
  });

  get('/getTheTagsList', async (request) => content.tagsOfPost(readRequiredId(paramsOf(request))));
  get('/getAllTags', async () => content.tagsInUse());

  get('/get_dailypics', async (request) => {
    const params = paramsOf(request);
    const page = readCustomPage(params, 9);
    const title = params.string('post_title');
    params.check();
    return content.dailypics(page, title);
  });
  get('/get_dailypicsId', async (request) => content.dailypic(readRequiredId(paramsOf(request))));
  for (const [path, list] of [['/get_dailypics_hot', content.dailypicsHot], ['/get_dailypics_new', content.dailypicsNew]] as const) {
    get(path, async (request) => {
      const params = paramsOf(request);
      const page = readCustomPage(params, 9);
      params.check();
      return list(page);
    });
  }
  get('/getDailypicTags', async (request) => {
    const params = paramsOf(request);
    const page = readCustomPage(params, 9);
    const tagId = params.integer('tag_id', { minimum: 1 });
    const title = params.string('post_title');
    params.check();
    return content.dailypicsOfTag(page, tagId, title);
  });

  // The site's pages count a visit or download with GET or POST (spec §7), so both are served.
  route(['GET', 'POST'], '/update_post_views', async (request) => {
    const views = await content.countVisit(readRequiredId(paramsOf(request)), 'views');
    return { code: SUCCESS_CODE, views };
  });
  route(['GET', 'POST'], '/update_post_download', async (request) => {
    const downloads = await content.countVisit(readRequiredId(paramsOf(request)), 'downloads');
    return { code: SUCCESS_CODE, downloads };
  });

  get('/get_first_image', async (request) => content.firstImage(readRequiredId(paramsOf(request))));
  get('/get_tags_tdk', async (request) => content.tagHead(readRequiredId(paramsOf(request))));
  get('/get_post_meta', async (request) => content.postMeta(readRequiredId(paramsOf(request))));
};
