// Site benchmark (decision 0008): SSR throughput of the home page against a static file served by the same
// Next.js server, and /api/v4/getutctime against a bare Fastify route. Same machine, same run.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { freePort, root, stopChild, waitForHttp } from '../scripts/lib.mjs';
import { measure, printRatio, printTable } from './http';
import { startSite } from './site-servers';

const STATIC_PATH = process.env.BENCH_STATIC_PATH ?? '/logo.svg';

export async function runSiteBench(): Promise<boolean> {
  const site = await startSite();
  const barePort = await freePort();
  const bare = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench', 'bare-fastify.ts')], {
    env: { ...process.env, PORT: String(barePort) },
    stdio: 'ignore',
  });
  try {
    await waitForHttp(`http://127.0.0.1:${barePort}/time`, 30_000, bare);
    const web0 = site.web;

    // Two load threads: one alone saturates on the home page's 190 kB before the server does.
    const home = await measure({ name: 'home page / (SSR, zh-CN)', url: `${web0}/`, workers: 2 });
    const file = await measure({ name: `static file ${STATIC_PATH} (same Next.js server)`, url: `${web0}${STATIC_PATH}`, workers: 2 });
    printTable('Home page SSR vs static file', [home, file]);
    const isHomeMet = printRatio('home SSR / static', home, file, 0.5);

    const utc = await measure({ name: 'GET /api/v4/getutctime (API)', url: `${site.api}/api/v4/getutctime`, expectCode: 10000 });
    const bareRoute = await measure({ name: 'bare Fastify route', url: `http://127.0.0.1:${barePort}/time` });
    const proxied = await measure({ name: 'GET /api/v4/getutctime via :3000 front', url: `${web0}/api/v4/getutctime`, expectCode: 10000 });
    printTable('getutctime vs bare Fastify', [utc, bareRoute, proxied]);
    const isUtcMet = printRatio('getutctime / bare Fastify', utc, bareRoute, 0.5);
    return isHomeMet && isUtcMet;
  } finally {
    await Promise.all([site.stop(), stopChild(bare)]);
  }
}
