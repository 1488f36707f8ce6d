import type { FastifyPluginAsync } from 'fastify';
import { sendStored } from './send-stored';
import { isValidStorageKey, type Storage } from './storage';

// Public content files (decision 0012): `GET|HEAD /content/<path>` serves storage key `content/<path>`,
// which the content importer fills from the repository's content/images, content/files and
// content/media. Gated files (member drawings, paid lessons) are NOT under content/ and are served
// by their own modules after a permission check.

export const PUBLIC_CONTENT_PREFIX = 'content/';

export interface StorageRoutesOptions {
  storage: Storage;
}

export const storageRoutes: FastifyPluginAsync<StorageRoutesOptions> = async (app, { storage }) => {
  app.get('/content/*', async (request, reply) => {
    // The router has already percent-decoded the path (decoding again would misread a '%' in a name).
    const key = PUBLIC_CONTENT_PREFIX + (request.params as { '*': string })['*'];
    const object = isValidStorageKey(key) ? await storage.stat(key) : undefined;
    if (object === undefined) return reply.code(404).send({ code: 404, message: 'not found' });
    return sendStored(request, reply, storage, object);
  });
};
