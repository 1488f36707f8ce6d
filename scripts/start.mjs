// `npm start`: on a fresh clone installs, migrates, seeds, builds and serves the whole site on the
// embedded defaults: web on :3000 (which also answers /api/* and /wp-json/*) and the API on :3001.
import {
  ensureInstalled,
  ensureWebBuild,
  loadDotEnv,
  log,
  migrateAndSeed,
  spawnApi,
  spawnWeb,
  stopChild,
  waitForHttp,
  withEmbeddedDefaults,
} from './lib.mjs';

loadDotEnv();
const webPort = Number(process.env.WEB_PORT ?? 3000);
const apiPort = Number(process.env.API_PORT ?? 3001);
const env = withEmbeddedDefaults(
  {
    ...process.env,
    NODE_ENV: 'production',
    API_PORT: String(apiPort),
    API_ORIGIN: process.env.API_ORIGIN ?? `http://127.0.0.1:${apiPort}`,
    // Where QR codes and OAuth redirects point; set it to a LAN or public address to scan from a phone.
    PUBLIC_ORIGIN: process.env.PUBLIC_ORIGIN ?? `http://127.0.0.1:${webPort}`,
  },
  { warn: true },
);

try {
  ensureInstalled();
  migrateAndSeed(env);
} catch (error) {
  console.error(`[xcad] start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

// The API first: pages prerendered by the build read their content from it.
const api = spawnApi(env);
let web;
let isStopping = false;

async function shutdown(code) {
  if (isStopping) return;
  isStopping = true;
  log('stopping...');
  await Promise.all([web === undefined ? undefined : stopChild(web), stopChild(api)]);
  process.exit(code);
}

function stopWhenItExits(child) {
  child.on('exit', (code) => {
    if (!isStopping) {
      console.error(`[xcad] a server exited unexpectedly (code ${code}); stopping the other`);
      void shutdown(code || 1);
    }
  });
}
stopWhenItExits(api);
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

try {
  await waitForHttp(`http://127.0.0.1:${apiPort}/health`, 60_000, api);
  ensureWebBuild(env);
  web = spawnWeb(env, webPort);
  stopWhenItExits(web);
  await waitForHttp(`http://127.0.0.1:${webPort}/`, 60_000, web);
  log(`site ready: http://localhost:${webPort}/  (API http://127.0.0.1:${apiPort}/, Ctrl+C to stop)`);
} catch (error) {
  console.error(`[xcad] ${error instanceof Error ? error.message : String(error)}`);
  await shutdown(1);
}
