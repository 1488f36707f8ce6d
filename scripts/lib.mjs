// Helpers for the root scripts (start, test, bench, e2e set-up). Plain Node ESM with no
// dependencies: these run on a fresh clone before `node_modules` exists.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const webDir = path.join(root, 'apps', 'web');

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export function log(message) {
  console.info(`[xcad] ${message}`);
}

// The development value of the product secret, as in .env.example. The embedded default (`npm start`,
// tests, benchmarks) runs in production mode on one machine; a real deployment sets its own.
export const DEV_SIGN_SECRET = 'xcad-dev-sign-secret-141';

/** `env` with the embedded defaults filled in where the operator set nothing. */
export function withEmbeddedDefaults(env, { warn = false } = {}) {
  if (env.PRODUCT_SIGN_SECRET) return env;
  if (warn) log('PRODUCT_SIGN_SECRET is not set: using the development secret from .env.example');
  return { ...env, PRODUCT_SIGN_SECRET: DEV_SIGN_SECRET };
}

/** Runs a command to completion with inherited stdio; throws on failure. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed with exit code ${result.status ?? result.signal}`);
  }
}

/**
 * Loads the settings file into `process.env` without overriding the real environment:
 * `XCAD_ENV_FILE` when set (relative to the repository root; it must exist), else `.env` at the
 * repository root if there is one. Every command of the README reads its settings this way:
 * `npm start` and `npm test` here, the other npm scripts through `scripts/load-env.mjs`. A file
 * that cannot be read ends the command with one line.
 */
export function loadDotEnv() {
  const chosen = process.env.XCAD_ENV_FILE;
  const file = chosen ? path.resolve(root, chosen) : path.join(root, '.env');
  if (!chosen && !existsSync(file)) return;
  try {
    process.loadEnvFile(file);
  } catch (error) {
    console.error(`[xcad] cannot read the settings file ${file}: ${error.code ?? error.message}`);
    process.exit(1);
  }
}

/**
 * Why the dependencies of the project in `dir` must be installed, or undefined when its
 * `node_modules` holds what the lockfile locks. Checked: the install marker is there and not older
 * than the lockfile, and every package the lockfile lists (but those optional, e.g. another
 * platform's binaries) has its package.json on disk, so an install that was cut short or skipped
 * devDependencies (NODE_ENV=production) is seen, whatever the marker says.
 */
export function installNeededIn(dir) {
  const marker = path.join(dir, 'node_modules', '.package-lock.json');
  const lock = path.join(dir, 'package-lock.json');
  if (!existsSync(marker)) return 'node_modules is missing';
  if (!existsSync(lock)) return undefined;
  if (statSync(marker).mtimeMs < statSync(lock).mtimeMs) return 'package-lock.json changed since the last install';
  const { packages = {} } = JSON.parse(readFileSync(lock, 'utf8'));
  for (const [location, entry] of Object.entries(packages)) {
    if (location === '' || entry.optional) continue;
    if (!existsSync(path.join(dir, location, 'package.json'))) return `${location} is missing`;
  }
  return undefined;
}

/**
 * Installs the dependencies of the project in `dir` (default: this repository) when
 * `installNeededIn` finds a reason, so that `npm start` and `npm test` work on a fresh clone with
 * nothing installed by hand and heal a broken install. devDependencies are always installed
 * (tsx runs the servers, Next builds the site), whatever NODE_ENV says. Returns whether it ran npm.
 */
export function ensureInstalled(dir = root) {
  const reason = installNeededIn(dir);
  if (reason === undefined) return false;
  const lock = existsSync(path.join(dir, 'package-lock.json'));
  log(`installing dependencies (npm ${lock ? 'ci' : 'install'}: ${reason})...`);
  run(npm, [lock ? 'ci' : 'install', '--include=dev', '--no-fund', '--no-audit'], { cwd: dir });
  return true;
}

function hashTree(hash, dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.next') || entry.name === 'next-env.d.ts') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) hashTree(hash, full);
    else {
      hash.update(path.relative(root, full));
      hash.update(readFileSync(full));
    }
  }
}

/** A fingerprint of everything the production web build depends on. */
export function webSourceHash() {
  const hash = createHash('sha256');
  hashTree(hash, webDir);
  hashTree(hash, path.join(root, 'packages', 'protocol', 'src'));
  // The viewer (/kantu) bundles the CAD engine and the DWG reader into its workers.
  hashTree(hash, path.join(root, 'packages', 'cad', 'src'));
  hashTree(hash, path.join(root, 'packages', 'cad-dwg', 'src'));
  hash.update(readFileSync(path.join(root, 'package-lock.json')));
  // The browser signs with the secret inlined at build time (next.config.ts): a new secret needs a new build.
  hash.update(`secret:${process.env.PRODUCT_SIGN_SECRET ?? ''}`);
  return hash.digest('hex');
}

/**
 * Builds the Next.js site unless the last build was made from the same sources. Pages prerendered
 * at build time read the content API at `env.API_ORIGIN`, so callers start the API first.
 */
export function ensureWebBuild(env = process.env) {
  const out = path.join(webDir, env.NEXT_DIST_DIR ?? '.next');
  const stamp = path.join(out, 'xcad-build-stamp');
  // A folder named after a fingerprint (e2eDistDir) is stamped with that fingerprint, even if a
  // file changed in between: another run with the same name then reuses it instead of rebuilding
  // the folder the first run is serving from.
  const hash = env.XCAD_BUILD_FINGERPRINT ?? webSourceHash();
  const isUpToDate = () => existsSync(stamp) && readFileSync(stamp, 'utf8') === hash && existsSync(path.join(out, 'BUILD_ID'));
  if (isUpToDate()) {
    log('web build is up to date');
    return;
  }
  // Two runs building into one folder at once would corrupt it: the second waits for the first.
  const release = acquireLock(`${out}.lock`);
  try {
    if (isUpToDate()) {
      log('web build is up to date (built by another run)');
      return;
    }
    log('building the web app (next build)...');
    run(process.execPath, [path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
      cwd: webDir,
      env: { ...env, NEXT_TELEMETRY_DISABLED: '1' },
    });
    writeFileSync(stamp, hash);
  } finally {
    release();
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function sleepSync(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** An exclusive lock file holding our pid; a lock whose process is gone is taken over. */
function acquireLock(file) {
  let announced = false;
  for (;;) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    const owner = Number(readFileSync(file, 'utf8'));
    if (!Number.isInteger(owner) || owner <= 0 || !isAlive(owner)) {
      rmSync(file, { force: true });
      continue;
    }
    if (!announced) log(`waiting for process ${owner} to finish building the web app...`);
    announced = true;
    sleepSync(1000);
  }
}

export function migrateAndSeed(env = process.env) {
  const cli = path.join(root, 'packages', 'db', 'src', 'cli.ts');
  run(process.execPath, ['--import', 'tsx', cli, 'migrate'], { env });
  run(process.execPath, ['--import', 'tsx', cli, 'seed'], { env });
  // content/ (Markdown, decision 0011) into the database; quiet unless a file changed.
  run(process.execPath, ['--import', 'tsx', path.join(root, 'apps', 'api', 'src', 'modules', 'content', 'content.import.cli.ts')], { env });
}

/** Starts the API server as a child process. */
export function spawnApi(env, stdio = 'inherit') {
  return spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps', 'api', 'src', 'server.ts')], {
    cwd: root,
    env,
    stdio,
  });
}

/** Starts the web front server (Next.js production build + streaming proxy to the API). */
export function spawnWeb(env, port, stdio = 'inherit') {
  return spawn(process.execPath, ['--import', 'tsx', path.join(webDir, 'server', 'main.ts')], {
    cwd: webDir,
    env: { NEXT_TELEMETRY_DISABLED: '1', ...env, WEB_PORT: String(port) },
    stdio,
  });
}

/** Resolves when `url` answers (any HTTP status), rejects after `timeoutMs`. */
export async function waitForHttp(url, timeoutMs = 60_000, child) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`process for ${url} exited with code ${child.exitCode}`);
    try {
      await fetch(url, { method: 'HEAD', redirect: 'manual' });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** A TCP port that is free right now on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Stops a child process: SIGTERM, then SIGKILL after `graceMs`. */
export function stopChild(child, graceMs = 10_000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * The build folder of a browser-test run (as environment variables for ensureWebBuild and the web server): one per source fingerprint, so a run that changed the
 * web app never rebuilds the folder another run is serving from. Folders of other fingerprints
 * untouched for three hours are removed.
 */
export function e2eDistDir() {
  const fingerprint = webSourceHash();
  const name = `.next-e2e-${fingerprint.slice(0, 12)}`;
  const staleBefore = Date.now() - 3 * 3600_000;
  for (const entry of readdirSync(webDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || !entry.name.startsWith('.next-e2e-') || entry.name === name) continue;
    const folder = path.join(webDir, entry.name);
    if (statSync(folder).mtimeMs < staleBefore) rmSync(folder, { recursive: true, force: true });
  }
  return { NEXT_DIST_DIR: name, XCAD_BUILD_FINGERPRINT: fingerprint };
}
