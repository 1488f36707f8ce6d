import type { ChildProcess, StdioOptions } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as siteScriptsModule from '../../../scripts/lib.mjs';

// The desktop app runs the site it shows: the API and the web server, started as child processes
// the same way `npm start` starts them (scripts/lib.mjs), on the embedded defaults (SQLite, local
// files, in-process jobs) with every file in the user's own data folder. `root` is the site's
// folder: the repository, or its copy inside an installed package.

type SiteScripts = typeof siteScriptsModule;

export interface EmbeddedServersOptions {
  /** The folder holding scripts/lib.mjs, apps/, packages/ and node_modules/. */
  readonly root: string;
  /** The per-user folder for the database and stored files (created if missing). */
  readonly dataDir: string;
  /** The environment the servers inherit (ports, secrets and databases are set here). */
  readonly env?: NodeJS.ProcessEnv;
  /** Ports; a free one each when omitted. */
  readonly apiPort?: number;
  readonly webPort?: number;
  /**
   * `ensure` builds the web app when its build is missing or stale (a source checkout);
   * `require` refuses to start without a build (an installed package cannot build).
   */
  readonly webBuild: 'ensure' | 'require';
  /** Where the servers' output goes; the terminal by default. */
  readonly stdio?: StdioOptions;
  /** Called once if a server exits while the app still needs it. */
  readonly onUnexpectedExit?: (name: 'api' | 'web', code: number | null) => void;
}

export interface EmbeddedServers {
  /** The site's origin, e.g. http://127.0.0.1:40123. */
  readonly siteUrl: string;
  readonly apiUrl: string;
  readonly apiPid: number;
  readonly webPid: number;
  /** SIGTERM both servers, SIGKILL after a grace period; resolves when both have exited. */
  stop(): Promise<void>;
}

export class ServerStartError extends Error {
  override readonly name = 'ServerStartError';
}

async function siteScripts(root: string): Promise<SiteScripts> {
  const file = path.join(root, 'scripts', 'lib.mjs');
  if (!existsSync(file)) throw new ServerStartError(`the site is not at ${root} (no scripts/lib.mjs)`);
  return (await import(pathToFileURL(file).href)) as SiteScripts;
}

/** The environment of the embedded servers: SQLite and files in `dataDir`, nothing shared. */
export function embeddedEnv(base: NodeJS.ProcessEnv, dataDir: string, apiPort: number, webPort: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...base,
    NODE_ENV: 'production',
    SQLITE_PATH: path.join(dataDir, 'xcad.sqlite'),
    STORAGE_DIR: path.join(dataDir, 'storage'),
    API_PORT: String(apiPort),
    API_HOST: '127.0.0.1',
    WEB_HOST: '127.0.0.1',
    API_ORIGIN: `http://127.0.0.1:${apiPort}`,
    PUBLIC_ORIGIN: `http://127.0.0.1:${webPort}`,
  };
  // The desktop app is the embedded default by definition: one user, one machine, no shared services.
  for (const name of ['DATABASE_URL', 'CONVERSION_QUEUE', 'STORAGE_PROVIDER']) delete env[name];
  return env;
}

/** Migrates and seeds the user's database, then starts the API and the web server. */
export async function startEmbeddedServers(options: EmbeddedServersOptions): Promise<EmbeddedServers> {
  const lib = await siteScripts(options.root);
  mkdirSync(options.dataDir, { recursive: true });
  const apiPort = options.apiPort ?? (await lib.freePort());
  const webPort = options.webPort ?? (await lib.freePort());
  const env = lib.withEmbeddedDefaults(embeddedEnv(options.env ?? process.env, options.dataDir, apiPort, webPort));
  const stdio = options.stdio ?? 'inherit';
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const siteUrl = `http://127.0.0.1:${webPort}`;

  if (options.webBuild === 'require') {
    const buildId = path.join(options.root, 'apps', 'web', env.NEXT_DIST_DIR ?? '.next', 'BUILD_ID');
    if (!existsSync(buildId)) throw new ServerStartError(`the web app has no production build (${buildId} is missing)`);
  }
  try {
    lib.migrateAndSeed(env);
  } catch (error) {
    throw new ServerStartError(`preparing the database failed: ${error instanceof Error ? error.message : String(error)}`);
  }

  let isStopping = false;
  const children: ChildProcess[] = [];
  const stop = async () => {
    isStopping = true;
    await Promise.all(children.map((child) => lib.stopChild(child)));
  };
  const watch = (child: ChildProcess, name: 'api' | 'web') => {
    children.push(child);
    child.once('exit', (code) => {
      if (!isStopping) options.onUnexpectedExit?.(name, code);
    });
  };

  try {
    // The API first: pages prerendered by a build read their content from it.
    const api = lib.spawnApi(env, stdio);
    watch(api, 'api');
    await lib.waitForHttp(`${apiUrl}/health`, 60_000, api);
    if (options.webBuild === 'ensure') lib.ensureWebBuild(env);
    const web = lib.spawnWeb(env, webPort, stdio);
    watch(web, 'web');
    await lib.waitForHttp(`${siteUrl}/`, 90_000, web);
    if (api.pid === undefined || web.pid === undefined) throw new ServerStartError('a server process has no pid');
    return { siteUrl, apiUrl, apiPid: api.pid, webPid: web.pid, stop };
  } catch (error) {
    await stop();
    if (error instanceof ServerStartError) throw error;
    throw new ServerStartError(`the servers did not start: ${error instanceof Error ? error.message : String(error)}`);
  }
}
