// `npm run desktop` (and /usr/bin/xcad-desktop of the .deb, with --installed): the desktop app
// on this machine. One app per user data folder; a second launch brings the first one's window
// forward and exits. Closing the window, SIGTERM or Ctrl+C quit and stop the servers.
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { desktopDataDir } from './data-dir';
import { launchDesktopShell, type DesktopShell } from './shell';
import { acquireInstanceLock } from './single-instance';

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const root = path.resolve(appDir, '..', '..');
const isInstalled = process.argv.includes('--installed');

function say(message: string): void {
  console.info(`[xcad-desktop] ${message}`);
}

function versionOf(): string {
  const manifest = JSON.parse(readFileSync(path.join(appDir, 'package.json'), 'utf8')) as { version?: unknown };
  return typeof manifest.version === 'string' ? manifest.version : '0.0.0';
}

async function main(): Promise<number> {
  if (!isInstalled) {
    const { loadDotEnv } = await import('../../../../scripts/lib.mjs');
    loadDotEnv();
  }
  const dataDir = desktopDataDir();
  mkdirSync(dataDir, { recursive: true });

  let shell: DesktopShell | undefined;
  let isQuitRequested = false;
  const lock = await acquireInstanceLock(dataDir, async () => {
    // A launch while this one is still starting: its window comes up by itself.
    await shell?.focus();
  });
  if (!lock.isPrimary) {
    say('the desktop app is already running: its window was brought forward');
    return 0;
  }

  const quit = () => {
    isQuitRequested = true;
    void shell?.quit();
  };
  process.on('SIGTERM', quit);
  process.on('SIGINT', quit);
  process.on('SIGHUP', quit);

  const logFile = path.join(dataDir, 'servers.log');
  const logFd = openSync(logFile, 'a');
  say(`data folder ${dataDir}; server output in ${logFile}`);
  try {
    shell = await launchDesktopShell({
      root,
      dataDir,
      version: versionOf(),
      webBuild: isInstalled ? 'require' : 'ensure',
      stdio: ['ignore', logFd, logFd],
      log: say,
    });
    say(
      `ready: ${shell.siteUrl}/ (api pid ${shell.servers.apiPid}, web pid ${shell.servers.webPid}, browser pid ${shell.browserPid ?? 'unknown'})`,
    );
    if (isQuitRequested) void shell.quit();
    await shell.closed;
    say('quit: the servers are stopped');
    return 0;
  } catch (error) {
    console.error(`[xcad-desktop] ${error instanceof Error ? error.message : String(error)} (see ${logFile})`);
    return 1;
  } finally {
    closeSync(logFd);
    await lock.release();
  }
}

process.exit(await main());
