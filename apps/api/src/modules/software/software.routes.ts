import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ApiError, PROTOCOL_ERRORS } from '@xcad/protocol';
import type { SiteRoutesOptions } from '../site-deps';
import { PLATFORMS } from './software-platforms';
import { createSoftwareService, SOFTWARE_API_PREFIX, SOFTWARE_MESSAGES, unknownProductError } from './software.service';
import { KEY_PATTERN } from './software-source';

// The download pages' data and counter (decision 0012): unsigned GETs under /api/site/software.
//   GET /api/site/software/{key}                              product, current release, files, requirements, change log, count
//   GET /api/site/software/{key}/download?platform=windows|…  counts, then 302 to the installer or store
// HEAD of the download URL answers the same redirect without counting.

// The page data may be cached briefly by browsers and proxies; the redirect never (each is a download).
const PRODUCT_CACHE_CONTROL = 'public, max-age=30, s-maxage=30';
const MAX_KEY_LENGTH = 60;

function keyOf(request: FastifyRequest<{ Params: { key: string } }>): string {
  const { key } = request.params;
  if (key.length > MAX_KEY_LENGTH || !KEY_PATTERN.test(key)) throw unknownProductError('malformed software key');
  return key;
}

export const softwareRoutes: FastifyPluginAsync<SiteRoutesOptions> = async (app, { deps }) => {
  const software = createSoftwareService(deps);

  app.get<{ Params: { key: string } }>(`${SOFTWARE_API_PREFIX}/:key`, async (request, reply) => {
    const view = await software.product(keyOf(request));
    return reply.header('cache-control', PRODUCT_CACHE_CONTROL).send(view);
  });

  app.get<{ Params: { key: string }; Querystring: Record<string, unknown> }>(
    `${SOFTWARE_API_PREFIX}/:key/download`,
    async (request, reply) => {
      const key = keyOf(request);
      const platform = request.query['platform'];
      if (typeof platform !== 'string' || platform === '') {
        const { code, status } = PROTOCOL_ERRORS.malformed;
        throw new ApiError({
          code,
          httpStatus: status,
          userMessage: SOFTWARE_MESSAGES.missingPlatform(PLATFORMS),
          logMessage: 'download without one platform',
        });
      }
      const location = await software.download({ key, platform, clientAddress: request.ip, shouldCount: request.method === 'GET' });
      return reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex').redirect(location, 302);
    },
  );
};
