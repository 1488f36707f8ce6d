// The whole site as `npm start` runs it (production build, seeded throwaway database, content
// imported), on free ports, for the benchmarks that measure it from outside.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ensureWebBuild,
  freePort,
  migrateAndSeed,
  spawnApi,
  spawnWeb,
  stopChild,
  waitForHttp,
  withEmbeddedDefaults,
} from '../scripts/lib.mjs';

export interface RunningSite {
  /** The site origin (front server: pages, /api, /wp-json, /content). */
  web: string;
  /** The API process itself. */
  api: string;
  stop(): Promise<void>;
}

export async function startSite(): Promise<RunningSite> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'xcad-bench-'));
  const [apiPort, webPort] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = withEmbeddedDefaults({
    ...process.env,
    NODE_ENV: 'production',
    // Production logging stays on (one line per request, to /dev/null here): it is part of the cost.
    LOG_LEVEL: 'info',
    SQLITE_PATH: path.join(dataDir, 'bench.sqlite'),
    STORAGE_DIR: path.join(dataDir, 'storage'),
    DATA_DIR: dataDir,
    API_PORT: String(apiPort),
    API_ORIGIN: `http://127.0.0.1:${apiPort}`,
    SITE_URL: `http://127.0.0.1:${webPort}`,
    PUBLIC_ORIGIN: `http://127.0.0.1:${webPort}`,
  });
  delete env.DATABASE_URL;
  migrateAndSeed(env);
  const api = spawnApi(env, 'ignore');
  let web;
  try {
    // The API first: pages prerendered by the build read their content from it.
    await waitForHttp(`http://127.0.0.1:${apiPort}/health`, 60_000, api);
    ensureWebBuild(env);
    web = spawnWeb(env, webPort, 'ignore');
    await waitForHttp(`http://127.0.0.1:${webPort}/`, 90_000, web);
  } catch (error) {
    await Promise.all([stopChild(web), stopChild(api)]);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    web: `http://127.0.0.1:${webPort}`,
    api: `http://127.0.0.1:${apiPort}`,
    stop: async () => {
      await Promise.all([stopChild(web), stopChild(api)]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
