import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  e2eDistDir,
  ensureWebBuild,
  freePort,
  migrateAndSeed,
  spawnApi,
  spawnWeb,
  stopChild,
  waitForHttp,
  withEmbeddedDefaults,
} from '../scripts/lib.mjs';
import { seedFixtureAccounts } from './support/fixtures';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    apiUrl: string;
    /** The throwaway SQLite database the servers use (tests may read what a page stored). */
    sqlitePath: string;
    /** The servers' STORAGE_DIR. */
    storageDir: string;
  }
}

// One production build and one seeded throwaway database for every browser test file.
let api: ChildProcess | undefined;
let web: ChildProcess | undefined;
let dataDir: string | undefined;

export default async function setup(project: TestProject) {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'xcad-e2e-'));
  const [apiPort, webPort] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = withEmbeddedDefaults({
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    SQLITE_PATH: path.join(dataDir, 'e2e.sqlite'),
    DATA_DIR: dataDir,
    STORAGE_DIR: path.join(dataDir, 'storage'),
    // A build folder of this source's own: runs started while another one is serving never clash.
    ...e2eDistDir(),
    API_PORT: String(apiPort),
    API_ORIGIN: `http://127.0.0.1:${apiPort}`,
    // Every browser of every test file reports its page views from 127.0.0.1: the per-address
    // limit meant for one real client would throttle the whole suite.
    ANALYTICS_RATE_PER_MINUTE: process.env.ANALYTICS_RATE_PER_MINUTE ?? '100000',
    SITE_URL: `http://127.0.0.1:${webPort}`,
    PUBLIC_ORIGIN: `http://127.0.0.1:${webPort}`,
    // Decision 0025: conversions use only the fonts the engine ships, as on a machine without CJK fonts.
    CAD_SYSTEM_FONTS: '0',
  });
  delete env.DATABASE_URL;
  migrateAndSeed(env);
  await seedFixtureAccounts(env.SQLITE_PATH ?? '');
  // The API first: pages prerendered by the build read their content from it.
  api = spawnApi(env);
  try {
    await waitForHttp(`http://127.0.0.1:${apiPort}/health`, 60_000, api);
    ensureWebBuild(env);
    web = spawnWeb(env, webPort);
    await waitForHttp(`http://127.0.0.1:${webPort}/`, 90_000, web);
  } catch (error) {
    // A failed set-up gets no teardown: stop the servers here.
    await Promise.all([stopChild(web), stopChild(api)]);
    throw error;
  }
  project.provide('baseUrl', `http://127.0.0.1:${webPort}`);
  project.provide('apiUrl', `http://127.0.0.1:${apiPort}`);
  project.provide('sqlitePath', env.SQLITE_PATH ?? '');
  project.provide('storageDir', env.STORAGE_DIR ?? '');

  return async () => {
    await Promise.all([stopChild(web), stopChild(api)]);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
}
