// Entry point of the web process: `node --import tsx apps/web/server/main.ts [--dev]`. It checks
// the environment first (./env.ts) and refuses to start on a bad one.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import next from 'next';
import { loadWebEnv, WebEnvError, type WebEnv } from './env';
import { createFrontServer } from './front-server';
import { createPageCache } from './page-cache';

let env: WebEnv;
try {
  env = loadWebEnv();
} catch (error) {
  console.error(`[web] ${error instanceof WebEnvError ? error.message : String(error)}`);
  process.exit(1);
}

const isDev = process.argv.includes('--dev');
const port = env.WEB_PORT;
const hostname = env.WEB_HOST;
const apiOrigin = env.API_ORIGIN;
const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const app = next({ dev: isDev, dir, hostname, port });
await app.prepare();
const handleNext = app.getRequestHandler();
// Development always renders afresh; production keeps shared-cacheable pages briefly (decision 0008).
const pageCache = createPageCache({
  ttlMs: isDev ? 0 : env.PAGE_CACHE_TTL_MS,
  maxEntries: env.PAGE_CACHE_MAX_ENTRIES,
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
