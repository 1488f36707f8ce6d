import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DESKTOP_WINDOW, type DesktopBridge } from '@xcad/protocol';
import { e2eDistDir } from '../../scripts/lib.mjs';
import { buildDeb, INSTALL_DIR } from '@xcad/desktop/deb';
import { launchDesktopShell, type DesktopShell } from '@xcad/desktop/shell';
import { decodePng, rgbOf, shareOfColour } from '@xcad/desktop/testing/png';
import { startVirtualDisplay, type VirtualDisplay } from '@xcad/desktop/testing/virtual-display';

// The desktop app (decision 0020) as it runs here: the embedded servers and the site in Debian
// Chromium's app mode, under Xvfb with openbox. The window is checked where a person sees it:
// its real bounds and state (Browser.getWindowBounds), the layout, a screenshot. The servers run
// from the same production build as every browser test (e2eDistDir), on their own database.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const artifacts = path.join(root, 'e2e', 'artifacts');

let display: VirtualDisplay;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'xcad-desktop-e2e-'));
const openedFile = path.join(scratch, 'opened.txt');

beforeAll(async () => {
  display = await startVirtualDisplay();
  // Stands in for xdg-open: records what the app sent to the system browser.
  const opener = path.join(scratch, 'opener.sh');
  writeFileSync(opener, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${openedFile}'\n`);
  chmodSync(opener, 0o755);
  process.env.XCAD_DESKTOP_OPENER = opener;
}, 60_000);

afterAll(async () => {
  await display?.stop();
  delete process.env.XCAD_DESKTOP_OPENER;
  rmSync(scratch, { recursive: true, force: true });
});

function shellEnv(): NodeJS.ProcessEnv {
  return { ...process.env, DISPLAY: display.display, LOG_LEVEL: 'warn', ...e2eDistDir() };
}

function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

describe('the desktop app window (Chromium app mode)', () => {
  let shell: DesktopShell;

  const bounds = async () => (await shell.cdp.send('Browser.getWindowBounds', { windowId: shell.window.windowId })).bounds;
  const expectState = (state: string) => expect.poll(async () => (await bounds()).windowState).toBe(state);
  /**
   * The window's bounds once the window manager is done with it: after a restore, openbox may
   * still place the window a moment after it reports 'normal' (on a busy machine, long enough to
   * undo a move made at once).
   */
  const settledBounds = async () => {
    let last = JSON.stringify(await bounds());
    await expect
      .poll(async () => {
        await new Promise((r) => setTimeout(r, 250));
        const now = JSON.stringify(await bounds());
        const same = now === last;
        last = now;
        return same;
      })
      .toBe(true);
    return bounds();
  };

  beforeAll(async () => {
    shell = await launchDesktopShell({
      root,
      dataDir: path.join(scratch, 'app-data'),
      version: '0.1.0',
      webBuild: 'ensure',
      env: shellEnv(),
      stdio: 'ignore',
    });
    await shell.page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'), undefined, { timeout: 30_000 });
  }, 180_000);

  afterAll(async () => {
    await shell?.quit();
  });

  // Each test starts from a normal window, whatever the one before it left.
  beforeEach(async () => {
    if (!shell || (await shell.window.bounds()).windowState === 'normal') return;
    await shell.cdp.send('Browser.setWindowBounds', { windowId: shell.window.windowId, bounds: { windowState: 'normal' } });
    await expectState('normal');
  });

  it('shows the site in the desktop layout: its own title bar and no footer', async () => {
    const { page } = shell;
    await expect.poll(() => page.getAttribute('html', 'data-layout')).toBe('desktop');
    const titleBar = page.getByTestId('desktop-title-bar');
    await expect.poll(() => titleBar.isVisible()).toBe(true);
    expect(await titleBar.boundingBox()).toMatchObject({ y: 0, height: DESKTOP_WINDOW.titleBarHeight });
    for (const label of ['最小化', '最大化', '关闭'])
      expect(await page.getByRole('button', { name: label, exact: true }).isVisible()).toBe(true);
    expect(await page.getByTestId('site-footer').count()).toBe(1);
    expect(await page.getByTestId('site-footer').isVisible()).toBe(false);
    expect(await page.getByTestId('mobile-footer').isVisible()).toBe(false);
    // The header stays, right under the title bar.
    expect((await page.locator('header').first().boundingBox())?.y).toBe(DESKTOP_WINDOW.titleBarHeight);
  });

  it('reports the desktop platform (software info LINUX) and its version', async () => {
    expect(await shell.page.evaluate(() => [window.desktop?.isDesktop, window.desktop?.platform, window.desktop?.version])).toEqual([
      true,
      'LINUX',
      '0.1.0',
    ]);
  });

  it('maximises, restores and minimises the real window from the title bar', async () => {
    const { page } = shell;
    const before = await bounds();
    expect(before.windowState).toBe('normal');
    await page.getByRole('button', { name: '最大化', exact: true }).click();
    await expectState('maximized');
    await expect.poll(async () => (await bounds()).width).toBeGreaterThan(before.width ?? 0);
    // The button now restores, and says so.
    const restore = page.getByRole('button', { name: '还原', exact: true });
    await expect.poll(() => restore.isVisible()).toBe(true);
    expect(await page.evaluate(() => window.desktop?.isMaximized())).toBe(true);
    await restore.click();
    await expectState('normal');
    await expect.poll(async () => (await bounds()).width).toBe(before.width);
    await expect.poll(() => page.getByRole('button', { name: '最大化', exact: true }).isVisible()).toBe(true);

    await page.getByRole('button', { name: '最小化', exact: true }).click();
    await expectState('minimized');
    // What a second launch does: the window comes back.
    await shell.focus();
    await expectState('normal');
  });

  it('moves by an offset and follows a drag of its title bar', async () => {
    const { page } = shell;
    const start = await settledBounds();
    await page.evaluate(() => window.desktop?.moveBy(40, 30));
    await expect.poll(async () => [(await bounds()).left, (await bounds()).top]).toEqual([(start.left ?? 0) + 40, (start.top ?? 0) + 30]);

    const moved = await bounds();
    const area = await page.getByTestId('desktop-drag-area').boundingBox();
    if (!area) throw new Error('no drag area');
    const [x, y] = [area.x + area.width / 2, area.y + area.height / 2];
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 120, y + 60);
    await page.mouse.up();
    await expect.poll(async () => [(await bounds()).left, (await bounds()).top]).toEqual([(moved.left ?? 0) + 120, (moved.top ?? 0) + 60]);

    // A double click on the drag area maximises, another restores.
    await page.getByTestId('desktop-drag-area').dblclick();
    await expectState('maximized');
    await page.getByTestId('desktop-drag-area').dblclick();
    await expectState('normal');
  });

  it('answers the site only: a document of another origin gets no bridge and its calls are refused', async () => {
    const { page } = shell;
    await page.evaluate(() => {
      const frame = document.createElement('iframe');
      frame.src = 'data:text/html,<p>elsewhere</p>';
      frame.name = 'elsewhere';
      document.body.append(frame);
    });
    const frame = await expect
      .poll(() => page.frame({ name: 'elsewhere' })?.url())
      .toMatch(/^data:/)
      .then(() => page.frame({ name: 'elsewhere' })!);
    expect(await frame.evaluate(() => typeof window.desktop)).toBe('undefined');
    const refusal = await frame.evaluate(async () => {
      const call = (window as unknown as Record<string, (method: string) => Promise<unknown>>).__xcadDesktopCall;
      try {
        await call?.('minimize');
        return 'carried out';
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    });
    expect(refusal).toMatch(/refused a call/);
    expect((await bounds()).windowState).toBe('normal');
    await page.evaluate(() => document.querySelector('iframe[name="elsewhere"]')?.remove());
  });

  it('sends wp- requests to the site over http (spec §7)', async () => {
    const { page } = shell;
    const posts = (await (await fetch(`${shell.siteUrl}/wp-json/wp/v2/posts?per_page=1&_fields=id`)).json()) as Array<{ id: number }>;
    const id = posts[0]?.id;
    expect(id).toBeGreaterThan(0);
    const counted = page.waitForRequest((request) => request.url().includes('/wp-json/wp/v2/update_post_views'), { timeout: 30_000 });
    await page.goto(`${shell.siteUrl}/${id}.html`);
    const request = await counted;
    expect(request.url()).toBe(`http://${new URL(shell.siteUrl).host}/wp-json/wp/v2/update_post_views?id=${id}`);
  });

  it('opens other sites in the system browser and keeps the window on the site', async () => {
    const { page } = shell;
    await page.evaluate(() => window.desktop?.openExternal('https://www.xunjiepdf.com/'));
    await expect.poll(() => (existsSync(openedFile) ? readFileSync(openedFile, 'utf8') : '')).toContain('https://www.xunjiepdf.com/\n');
    const refused = await page.evaluate(() =>
      window.desktop?.openExternal('file:///etc/passwd').then(
        () => 'opened',
        (error: Error) => error.message,
      ),
    );
    expect(refused).toMatch(/http or https/);

    await page.evaluate(() => {
      window.location.href = 'https://www.xunjieshipin.com/';
    });
    await expect.poll(() => readFileSync(openedFile, 'utf8')).toContain('https://www.xunjieshipin.com/\n');
    expect(new URL(page.url()).origin).toBe(shell.siteUrl);
  });

  it('draws its title bar at the top of the window (screenshot)', async () => {
    const { page } = shell;
    await page.goto(`${shell.siteUrl}/`);
    await page.waitForFunction(() => document.documentElement.getAttribute('data-layout') === 'desktop');
    const png = await page.screenshot();
    mkdirSync(artifacts, { recursive: true });
    writeFileSync(path.join(artifacts, 'desktop-window.png'), png);
    const image = decodePng(png);
    const colour = rgbOf(DESKTOP_WINDOW.titleBarColor);
    // Between the title and the buttons the bar is its colour alone; the header below is not.
    const bar = { x: Math.round(image.width * 0.3), y: 2, width: Math.round(image.width * 0.4), height: DESKTOP_WINDOW.titleBarHeight - 4 };
    expect(shareOfColour(image, bar, colour)).toBeGreaterThan(0.99);
    expect(shareOfColour(image, { ...bar, y: DESKTOP_WINDOW.titleBarHeight + 4, height: 20 }, colour)).toBeLessThan(0.05);
  });

  it('quits when its window is closed and stops the servers it started', async () => {
    const { servers, browserPid } = shell;
    expect([servers.apiPid, servers.webPid, browserPid].every(isAlive)).toBe(true);
    // The click closes the page it was made on: Playwright may report that as an error of the click.
    await shell.page
      .getByRole('button', { name: '关闭', exact: true })
      .click()
      .catch((error: Error) => {
        if (!/closed/i.test(error.message)) throw error;
      });
    await shell.closed;
    await expect.poll(() => [servers.apiPid, servers.webPid, browserPid].map(isAlive)).toEqual([false, false, false]);
    expect(await answers(`${servers.siteUrl}/`)).toBe(false);
    expect(await answers(`${servers.apiUrl}/health`)).toBe(false);
  });
});

describe('the .deb and the installed app', () => {
  const outDir = path.join(root, 'apps', 'desktop', 'dist', `e2e-${process.pid}`);
  const installRoot = path.join(scratch, 'installed');
  let debFile = '';

  function dpkgDeb(...args: string[]): string {
    const result = spawnSync('dpkg-deb', args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    if (result.status !== 0) throw new Error(`dpkg-deb ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  }

  beforeAll(() => {
    // zstd: the package's contents are what matters here; releases use the default (xz).
    debFile = buildDeb({ root, outDir, webDistDir: e2eDistDir().NEXT_DIST_DIR, version: '0.1.0', compression: 'zstd' }).file;
    dpkgDeb('-x', debFile, installRoot);
  }, 300_000);

  afterAll(() => {
    rmSync(outDir, { recursive: true, force: true });
  });

  it('declares the package: name, version, dependencies on chromium and nodejs', () => {
    expect(path.basename(debFile)).toMatch(/^xcad-desktop_0\.1\.0_(amd64|arm64)\.deb$/);
    const info = dpkgDeb('-I', debFile);
    expect(info).toMatch(/^ Package: xcad-desktop$/m);
    expect(info).toMatch(/^ Version: 0\.1\.0$/m);
    expect(info).toMatch(/^ Depends: nodejs \(>= 20\.19\), chromium$/m);
    expect(info).toMatch(/^ Architecture: (amd64|arm64)$/m);
    expect(Number(/^ Installed-Size: (\d+)$/m.exec(info)?.[1])).toBeGreaterThan(50_000);
  });

  it('holds the launcher, the menu entry, the icon, the site and its build, and no tests', () => {
    const listing = dpkgDeb('-c', debFile);
    const paths = new Set(listing.split('\n').map((line) => line.split(/\s+/).slice(5).join(' ').split(' -> ')[0] ?? ''));
    for (const expected of [
      './usr/bin/xcad-desktop',
      './usr/share/applications/xcad-desktop.desktop',
      './usr/share/icons/hicolor/256x256/apps/xcad-desktop.png',
      './usr/share/doc/xcad-desktop/copyright',
      `.${INSTALL_DIR}/apps/desktop/src/shell/main.ts`,
      `.${INSTALL_DIR}/apps/api/src/server.ts`,
      `.${INSTALL_DIR}/apps/web/.next/BUILD_ID`,
      `.${INSTALL_DIR}/scripts/lib.mjs`,
      `.${INSTALL_DIR}/node_modules/next/package.json`,
      `.${INSTALL_DIR}/node_modules/tsx/package.json`,
      `.${INSTALL_DIR}/node_modules/playwright-core/package.json`,
    ]) {
      expect(paths.has(expected), expected).toBe(true);
    }
    expect(listing).toMatch(/^-rwxr-xr-x root\/root .* \.\/usr\/bin\/xcad-desktop$/m);
    const shipped = [...paths];
    const ours = shipped.filter((file) => !file.startsWith(`.${INSTALL_DIR}/node_modules/`));
    expect(ours.filter((file) => /\.(test|spec)\.tsx?$/.test(file))).toEqual([]);
    expect(shipped.filter((file) => file.includes('/.next/cache/'))).toEqual([]);
    // Tools for developers stay out.
    expect(
      shipped.some(
        (file) => file.startsWith(`.${INSTALL_DIR}/node_modules/vitest/`) || file.startsWith(`.${INSTALL_DIR}/node_modules/typescript/`),
      ),
    ).toBe(false);

    const entry = readFileSync(path.join(installRoot, 'usr/share/applications/xcad-desktop.desktop'), 'utf8');
    expect(entry).toMatch(/^Exec=xcad-desktop$/m);
    expect(entry).toMatch(/^Icon=xcad-desktop$/m);
    expect(entry).toMatch(/^Name\[zh_CN\]=迅捷CAD$/m);
  });

  it('the installed app runs once per user: a second launch brings the first forward, SIGTERM stops everything', async () => {
    const appDir = path.join(installRoot, INSTALL_DIR.slice(1));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DISPLAY: display.display,
      XCAD_DESKTOP_DATA_DIR: path.join(scratch, 'installed-data'),
      LOG_LEVEL: 'warn',
    };
    delete env.NEXT_DIST_DIR;
    delete env.XCAD_BUILD_FINGERPRINT;
    // As /usr/bin/xcad-desktop runs it, from the unpacked package instead of /usr/lib.
    const launch = () =>
      spawn(process.execPath, ['--import', 'tsx', path.join(appDir, 'apps/desktop/src/shell/main.ts'), '--installed'], {
        cwd: appDir,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    const output = (child: ChildProcess) => {
      let text = '';
      child.on('error', (error) => (text += `could not start: ${error.message}\n`));
      child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
      return () => text;
    };
    const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

    const first = launch();
    const firstOutput = output(first);
    const firstExit = exited(first);
    try {
      await expect.poll(firstOutput, { timeout: 120_000, interval: 500 }).toMatch(/ready: /);
      const ready = /ready: (http:\/\/127\.0\.0\.1:\d+)\/ \(api pid (\d+), web pid (\d+), browser pid (\d+)\)/.exec(firstOutput());
      expect(ready, firstOutput()).not.toBeNull();
      const [siteUrl, ...pids] = [ready![1]!, Number(ready![2]), Number(ready![3]), Number(ready![4])];
      expect(await answers(`${siteUrl}/`)).toBe(true);

      const second = launch();
      const secondOutput = output(second);
      expect(await exited(second)).toBe(0);
      expect(secondOutput()).toContain('already running');

      first.kill('SIGTERM');
      expect(await firstExit).toBe(0);
      expect(firstOutput()).toContain('quit: the servers are stopped');
      expect(pids.map(isAlive)).toEqual([false, false, false]);
      expect(await answers(`${siteUrl}/`)).toBe(false);
    } finally {
      if (first.exitCode === null) first.kill('SIGKILL');
    }
  }, 180_000);
});

declare global {
  interface Window {
    desktop?: DesktopBridge;
  }
}
