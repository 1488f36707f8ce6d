// Entry point of the web process: `node --import tsx apps/web/server/main.ts [--dev]`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import next from 'next';
import { createFrontServer } from './front-server';
import { createPageCache } from './page-cache';

const isDev = process.argv.includes('--dev');
const port = Number(process.env.WEB_PORT ?? 3000);
const hostname = process.env.WEB_HOST ?? '127.0.0.1';
const apiOrigin = process.env.API_ORIGIN ?? `http://127.0.0.1:${process.env.API_PORT ?? 3001}`;
const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const app = next({ dev: isDev, dir, hostname, port });
await app.prepare();
const handleNext = app.getRequestHandler();
// Development always renders afresh; production keeps shared-cacheable pages briefly (decision 0008).
const pageCache = createPageCache({
  ttlMs: isDev ? 0 : Number(process.env.PAGE_CACHE_TTL_MS ?? 10_000),
  maxEntries: Number(process.env.PAGE_CACHE_MAX_ENTRIES ?? 500),
});

const server = createFrontServer({
  apiOrigin,
  handleNext: (req, res) => pageCache.handle(req, res, (request, response) => handleNext(request, response)),
  onProxyError: (error, req) => console.error(`[web] API proxy error on ${req.method} ${req.url}: ${error.message}`),
});

server.listen(port, hostname, () => {
  console.info(`[web] listening on http://${hostname}:${port} (${isDev ? 'development' : 'production'}), API at ${apiOrigin}`);
});

let isClosing = false;
function shutdown(): void {
  if (isClosing) return;
  isClosing = true;
  server.close(() => {
    void app.close().finally(() => process.exit(0));
  });
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 10_000).unref();
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
