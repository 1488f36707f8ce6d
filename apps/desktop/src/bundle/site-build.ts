import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as siteScripts from '../../../../scripts/lib.mjs';

type SiteScripts = typeof siteScripts;

/**
 * Makes sure the web app has a production build from the current sources and returns its folder
 * name under apps/web (NEXT_DIST_DIR, else .next). Building prerenders pages from the content
 * API, so a throwaway API runs on a throwaway database meanwhile, as `npm start` does.
 */
export async function ensureSiteBuild(root: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const lib = (await import(pathToFileURL(path.join(root, 'scripts', 'lib.mjs')).href)) as SiteScripts;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'xcad-desktop-build-'));
  const apiPort = await lib.freePort();
  const buildEnv = lib.withEmbeddedDefaults({
    ...env,
    NODE_ENV: 'production',
    SQLITE_PATH: path.join(dataDir, 'build.sqlite'),
    STORAGE_DIR: path.join(dataDir, 'storage'),
    API_PORT: String(apiPort),
    API_ORIGIN: `http://127.0.0.1:${apiPort}`,
  });
  delete buildEnv.DATABASE_URL;
  let api: ReturnType<SiteScripts['spawnApi']> | undefined;
  try {
    lib.migrateAndSeed(buildEnv);
    api = lib.spawnApi(buildEnv, 'ignore');
    await lib.waitForHttp(`http://127.0.0.1:${apiPort}/health`, 60_000, api);
    lib.ensureWebBuild(buildEnv);
  } finally {
    await lib.stopChild(api);
    rmSync(dataDir, { recursive: true, force: true });
  }
  return buildEnv.NEXT_DIST_DIR ?? '.next';
}
