import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import {
  appendFileSync,
  chmodSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root, stopChild, waitForHttp, webDir, withEmbeddedDefaults } from '../scripts/lib.mjs';
import { createTestNetwork, type TestNetwork } from './netns';
import { nginxConfig } from './nginx-config';

// The production recipe (decision 0026), started by one call: nginx in front of two web
// and two API processes and two conversion workers, on PostgreSQL, Redis and an S3-compatible store
// (s3rver), each tier on a test host of its own (a network namespace). Every process runs as the
// README's commands run it (`npm run api`, `npm run web`, `npm run worker`: the settings file
// preloaded), with one settings file per tier, written into the work folder for an operator to read.

export const TIERS = ['front', 'web', 'api', 'worker', 'data'] as const;
export type Tier = (typeof TIERS)[number];

export const API_PORTS = [3001, 3002] as const;
export const WEB_PORTS = [3000, 3003] as const;
const POSTGRES_PORT = 5432;
const REDIS_PORT = 6379;
const S3_PORT = 4569;
const S3_BUCKET = 'xcad';
const S3_KEY = 'S3RVER';
const LOAD_ENV = path.join(root, 'scripts', 'load-env.mjs');

export interface RecipeProcess {
  /** api-1, worker-2, nginx, postgres, ... */
  name: string;
  tier: Tier;
  child: ChildProcess;
  /** Where its standard output and error go. */
  logFile: string;
}

export interface RecipeOptions {
  /** The folder of the run's files (settings, logs, data); default a new temporary one, removed by stop(). */
  workDir?: string;
  /** Settings of the API and worker processes beside the recipe's own (tests raise limits meant for many visitors). */
  settings?: Record<string, string>;
  /** The web build to serve: its folder under apps/web (default `.next`, as `npm start`) and fingerprint. */
  webBuild?: { NEXT_DIST_DIR: string; XCAD_BUILD_FINGERPRINT?: string };
  /** Progress lines. */
  say?: (line: string) => void;
}

export interface Recipe {
  /** The site's public origin: nginx on the front host. */
  origin: string;
  /** The product secret the clients sign with (the development one: the web build carries it). */
  signSecret: string;
  network: TestNetwork<Tier>;
  processes: RecipeProcess[];
  /** DATABASE_URL of the data tier, reachable from this machine. */
  databaseUrl: string;
  /** The folder of the S3 store's files. */
  s3Dir: string;
  workDir: string;
  /** The process called `name`. */
  process(name: string): RecipeProcess;
  /** The nginx worker processes' ids (children of the master). */
  nginxWorkers(): number[];
  /** The SMS codes the API processes logged for `phone` (the console provider), oldest first. */
  smsCodesFor(phone: string): string[];
  /** POSTs JSON to `path` of an API process from its own host (loopback): the development routes answer only there. */
  onApiHost(pathname: string, body: unknown): Promise<{ status: number; body: string }>;
  /** Stops every process, removes the test hosts (and the work folder if the recipe made it). */
  stop(): Promise<void>;
}

function postgresBin(): string {
  const versions = readdirSync('/usr/lib/postgresql').filter((name) => /^\d+$/.test(name));
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (newest === undefined) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql');
  return path.join('/usr/lib/postgresql', newest, 'bin');
}

function waitForTcp(host: string, port: number, child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = (): void => {
      if (child.exitCode !== null || child.signalCode !== null) {
        reject(new Error(`the process for ${host}:${port} exited`));
        return;
      }
      const socket = net.connect({ host, port });
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`${host}:${port} did not open within ${timeoutMs} ms`));
        else setTimeout(attempt, 100);
      });
    };
    attempt();
  });
}

async function waitForLine(file: string, pattern: RegExp, child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(readFileSync(file, 'utf8'))) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${path.basename(file, '.log')} exited: ${readFileSync(file, 'utf8').slice(-2000)}`);
    if (Date.now() > deadline) throw new Error(`${path.basename(file, '.log')} did not say ${String(pattern)} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs to completion, output to `logFile`; rejects on a non-zero exit. */
async function runToEnd(command: string[], options: { env: NodeJS.ProcessEnv; cwd?: string; logFile: string }): Promise<void> {
  const fd = openSync(options.logFile, 'a');
  const [program = '', ...args] = command;
  const child = spawn(program, args, { cwd: options.cwd ?? root, env: options.env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0)
    throw new Error(
      `${command.slice(0, 6).join(' ')} failed (exit ${String(code)}): ${readFileSync(options.logFile, 'utf8').slice(-2000)}`,
    );
}

/** A settings file as `.env` holds them. */
function writeSettings(file: string, settings: Record<string, string>): void {
  writeFileSync(
    file,
    `${Object.entries(settings)
      .map(([name, value]) => `${name}=${value}`)
      .join('\n')}\n`,
  );
}

const S3RVER_SCRIPT = `
const S3rver = require(process.argv[1]);
const server = new S3rver({ address: process.argv[3], port: Number(process.argv[4]), directory: process.argv[2], silent: true, configureBuckets: [{ name: process.argv[5], configs: [] }] });
server.run().then(() => console.info('s3rver ready'));
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
`;

/** What the recipe cannot run without, said plainly instead of as the first command's failure. */
function checkPrerequisites(): void {
  if (process.getuid?.() !== 0)
    throw new Error('the production recipe needs root: it makes network namespaces and runs PostgreSQL as its own user');
  for (const [program, hint] of [
    ['nginx', 'apt-get install nginx (.ci/run does)'],
    ['redis-server', 'apt-get install redis-server'],
    ['setpriv', 'apt-get install util-linux'],
  ] as const) {
    try {
      execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    } catch {
      throw new Error(`the production recipe needs ${program}: ${hint}`);
    }
  }
  postgresBin();
}

export async function startRecipe(options: RecipeOptions = {}): Promise<Recipe> {
  checkPrerequisites();
  const say = options.say ?? (() => undefined);
  const isOwnWorkDir = options.workDir === undefined;
  const workDir = options.workDir ?? mkdtempSync(path.join(tmpdir(), 'xcad-recipe-'));
  const logDir = path.join(workDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const network = createTestNetwork(TIERS);
  const processes: RecipeProcess[] = [];
  const hostOf = (tier: Tier) => network.hosts[tier].address;
  const origin = `http://${hostOf('front')}`;

  function start(name: string, tier: Tier, command: string[], env: NodeJS.ProcessEnv, cwd = root): RecipeProcess {
    const logFile = path.join(logDir, `${name}.log`);
    const fd = openSync(logFile, 'a');
    const launched = [...network.launcher(tier), ...command];
    const child = spawn(launched[0] ?? '', launched.slice(1), {
      cwd,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/root', ...env },
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    const started: RecipeProcess = { name, tier, child, logFile };
    processes.push(started);
    return started;
  }

  const stop = async (): Promise<void> => {
    // The data tier last: the others close their database and Redis connections as they stop.
    const isData = (entry: RecipeProcess) => entry.tier === 'data';
    await Promise.all(processes.filter((entry) => !isData(entry)).map((entry) => stopChild(entry.child, 10_000)));
    await Promise.all(processes.filter(isData).map((entry) => stopChild(entry.child, 10_000)));
    network.destroy();
    if (isOwnWorkDir) rmSync(workDir, { recursive: true, force: true });
  };

  try {
    // The data tier: a PostgreSQL cluster, Redis and the S3 store of this run, on the data host.
    say(`test hosts on ${network.cidr}: ${TIERS.map((tier) => `${tier} ${hostOf(tier)}`).join(', ')}`);
    // PostgreSQL runs as its own user, which must reach its folder.
    chmodSync(workDir, 0o755);
    const pgDir = path.join(workDir, 'postgres');
    mkdirSync(pgDir);
    execFileSync('chown', ['postgres:postgres', pgDir]);
    const bin = postgresBin();
    const asPostgres = ['setpriv', '--reuid=postgres', '--regid=postgres', '--init-groups'];
    await runToEnd(
      [
        ...asPostgres,
        path.join(bin, 'initdb'),
        '-D',
        pgDir,
        '--auth=trust',
        '--username=postgres',
        '--no-sync',
        '--encoding=UTF8',
        '--locale=C',
      ],
      {
        env: { PATH: process.env['PATH'] ?? '' },
        logFile: path.join(logDir, 'initdb.log'),
      },
    );
    appendFileSync(path.join(pgDir, 'pg_hba.conf'), `host all all ${network.cidr} trust\n`);
    const data = hostOf('data');
    const postgres = start(
      'postgres',
      'data',
      [
        ...asPostgres,
        path.join(bin, 'postgres'),
        '-D',
        pgDir,
        '-c',
        `listen_addresses=${data}`,
        '-c',
        `port=${POSTGRES_PORT}`,
        '-c',
        `unix_socket_directories=${pgDir}`,
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
      ],
      {},
    );
    const redisDir = path.join(workDir, 'redis');
    mkdirSync(redisDir);
    const redis = start(
      'redis',
      'data',
      [
        'redis-server',
        '--bind',
        data,
        '--port',
        String(REDIS_PORT),
        '--protected-mode',
        'no',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        redisDir,
      ],
      {},
    );
    const s3Dir = path.join(workDir, 's3');
    mkdirSync(s3Dir);
    // s3rver's paged listings use DES tokens, which OpenSSL 3 allows only with the legacy provider.
    const s3rver = createRequire(import.meta.url).resolve('s3rver');
    const s3 = start(
      's3',
      'data',
      [process.execPath, '--openssl-legacy-provider', '-e', S3RVER_SCRIPT, s3rver, s3Dir, data, String(S3_PORT), S3_BUCKET],
      {},
    );
    await Promise.all([
      waitForTcp(data, POSTGRES_PORT, postgres.child),
      waitForTcp(data, REDIS_PORT, redis.child),
      waitForLine(s3.logFile, /s3rver ready/, s3.child),
    ]);

    // What the API and worker hosts share: `npm run api` / `npm run worker` read it as their .env.
    const databaseUrl = `postgres://postgres@${data}:${POSTGRES_PORT}/postgres`;
    // The product secret the web build carries (the development one unless this machine sets its own).
    const signSecret = withEmbeddedDefaults({ PRODUCT_SIGN_SECRET: process.env['PRODUCT_SIGN_SECRET'] })['PRODUCT_SIGN_SECRET'] ?? '';
    const apiSettings: Record<string, string> = {
      NODE_ENV: 'production',
      PRODUCT_SIGN_SECRET: signSecret,
      LOG_LEVEL: 'info',
      API_HOST: '0.0.0.0',
      DATABASE_URL: databaseUrl,
      REDIS_URL: `redis://${data}:${REDIS_PORT}`,
      CONVERSION_QUEUE: 'bullmq',
      STORAGE_PROVIDER: 's3',
      S3_ENDPOINT: `http://${data}:${S3_PORT}`,
      S3_BUCKET,
      S3_ACCESS_KEY_ID: S3_KEY,
      S3_SECRET_ACCESS_KEY: S3_KEY,
      SITE_URL: origin,
      PUBLIC_ORIGIN: origin,
      // A test host: the development providers stand in for SMS, WeChat, QQ and payments (decision 0026).
      UNSAFE_DEV_PROVIDERS_AT: origin,
      // Only nginx may say who the visitor is.
      TRUST_PROXY: hostOf('front'),
      ...options.settings,
    };
    const apiFile = path.join(workDir, 'api.env');
    writeSettings(apiFile, apiSettings);

    // A release's migrations, seeds and content, run once from an API host.
    say('migrating, seeding and importing the content (PostgreSQL, S3)');
    const setup = `import(${JSON.stringify(path.join(root, 'scripts', 'lib.mjs'))}).then((lib) => lib.migrateAndSeed(process.env))`;
    await runToEnd([...network.launcher('api'), process.execPath, '--import', LOAD_ENV, '-e', setup], {
      env: { PATH: process.env['PATH'] ?? '', XCAD_ENV_FILE: apiFile },
      logFile: path.join(logDir, 'setup.log'),
    });

    const apis = API_PORTS.map((port, index) =>
      start(`api-${index + 1}`, 'api', [process.execPath, '--import', LOAD_ENV, '--import', 'tsx', 'apps/api/src/server.ts'], {
        XCAD_ENV_FILE: apiFile,
        API_PORT: String(port),
      }),
    );
    const workers = [1, 2].map((index) =>
      start(`worker-${index}`, 'worker', [process.execPath, '--import', LOAD_ENV, '--import', 'tsx', 'apps/api/src/worker.ts'], {
        XCAD_ENV_FILE: apiFile,
      }),
    );
    await Promise.all([
      ...apis.map((api, index) => waitForHttp(`http://${hostOf('api')}:${API_PORTS[index] ?? 0}/health`, 60_000, api.child)),
      ...workers.map((worker) => waitForLine(worker.logFile, /conversion worker started/, worker.child, 60_000)),
    ]);

    // nginx before the web: the web's server-side rendering reaches the API through it.
    const nginxDir = path.join(workDir, 'nginx');
    mkdirSync(path.join(nginxDir, 'logs'), { recursive: true });
    mkdirSync(path.join(nginxDir, 'temp'), { recursive: true });
    execFileSync('chown', ['-R', 'www-data:www-data', path.join(nginxDir, 'temp')]);
    writeFileSync(
      path.join(nginxDir, 'nginx.conf'),
      nginxConfig({
        listen: `${hostOf('front')}:80`,
        apis: API_PORTS.map((port) => `${hostOf('api')}:${port}`),
        webs: WEB_PORTS.map((port) => `${hostOf('web')}:${port}`),
        prefix: nginxDir,
      }),
    );
    const nginx = start('nginx', 'front', ['nginx', '-p', nginxDir, '-c', path.join(nginxDir, 'nginx.conf'), '-g', 'daemon off;'], {});
    await waitForHttp(`${origin}/health`, 30_000, nginx.child);

    const webSettings: Record<string, string> = {
      NODE_ENV: 'production',
      PRODUCT_SIGN_SECRET: signSecret,
      LOG_LEVEL: 'info',
      WEB_HOST: '0.0.0.0',
      API_ORIGIN: origin,
      SITE_URL: origin,
      NEXT_TELEMETRY_DISABLED: '1',
      ...(options.webBuild ?? { NEXT_DIST_DIR: '.next' }),
    };
    const webFile = path.join(workDir, 'web.env');
    writeSettings(webFile, webSettings);
    say('checking the web build (next build when the sources changed)');
    const build = `import(${JSON.stringify(path.join(root, 'scripts', 'lib.mjs'))}).then((lib) => lib.ensureWebBuild(process.env))`;
    // Built here (its pages prerendered from an API host directly), with the web tier's settings.
    await runToEnd([process.execPath, '-e', build], {
      env: { ...process.env, ...webSettings, API_ORIGIN: `http://${hostOf('api')}:${API_PORTS[0]}` },
      logFile: path.join(logDir, 'build.log'),
    });
    const webs = WEB_PORTS.map((port, index) =>
      start(
        `web-${index + 1}`,
        'web',
        [process.execPath, '--import', '../../scripts/load-env.mjs', '--import', 'tsx', 'server/main.ts'],
        { XCAD_ENV_FILE: webFile, WEB_PORT: String(port) },
        webDir,
      ),
    );
    await Promise.all(webs.map((web, index) => waitForHttp(`http://${hostOf('web')}:${WEB_PORTS[index] ?? 0}/`, 90_000, web.child)));
    await waitForHttp(`${origin}/`, 30_000, nginx.child);
    say(`site ready at ${origin} (settings and logs in ${workDir})`);

    return {
      origin,
      signSecret,
      network,
      processes,
      databaseUrl,
      s3Dir,
      workDir,
      process: (name) => {
        const found = processes.find((entry) => entry.name === name);
        if (found === undefined) throw new Error(`no recipe process ${name}`);
        return found;
      },
      nginxWorkers: () => {
        const master = nginx.child.pid ?? 0;
        return readFileSync(`/proc/${master}/task/${master}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
      },
      smsCodesFor: (phone) =>
        apis
          .flatMap((api) =>
            readFileSync(api.logFile, 'utf8')
              .split('\n')
              .filter((line) => line.includes('"msg":"dev sms sent"'))
              .map((line) => JSON.parse(line) as { account?: string; code?: string; time?: number })
              .filter((entry) => entry.account === phone),
          )
          .sort((a, b) => (a.time ?? 0) - (b.time ?? 0))
          .map((entry) => entry.code ?? ''),
      onApiHost: async (pathname, body) => {
        const script = `fetch(process.argv[1], { method: 'POST', headers: { 'content-type': 'application/json' }, body: process.argv[2] }).then(async (r) => console.info(JSON.stringify({ status: r.status, body: await r.text() })))`;
        const answer = execFileSync(
          network.launcher('api')[0] ?? '',
          [
            ...network.launcher('api').slice(1),
            process.execPath,
            '-e',
            script,
            `http://127.0.0.1:${API_PORTS[0]}${pathname}`,
            JSON.stringify(body),
          ],
          { encoding: 'utf8' },
        );
        return JSON.parse(answer) as { status: number; body: string };
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
