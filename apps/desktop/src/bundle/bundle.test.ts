import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { controlFile, debArchitecture, debVersion, desktopEntry, launcherScript } from './deb';
import { keptFiles, RUNTIME_WORKSPACES, runtimePackages } from './stage-site';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'xcad-bundle-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function manifest(dir: string, body: Record<string, unknown>): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify(body));
}

/** A repository with the runtime workspaces and an installed node_modules. */
function repository(apiDependencies: Record<string, string>): string {
  const root = mkdtempSync(path.join(scratch, 'repo-'));
  for (const workspace of RUNTIME_WORKSPACES)
    manifest(path.join(root, workspace), { name: `@xcad/${path.basename(workspace)}`, dependencies: {} });
  manifest(path.join(root, 'apps/api'), { name: '@xcad/api', dependencies: { '@xcad/db': '0.1.0', ...apiDependencies } });
  const modules = path.join(root, 'node_modules');
  manifest(path.join(modules, 'tsx'), { name: 'tsx', dependencies: { esbuild: '1' } });
  manifest(path.join(modules, 'esbuild'), {
    name: 'esbuild',
    optionalDependencies: { '@esbuild/linux-x64': '1', '@esbuild/win32-x64': '1' },
  });
  manifest(path.join(modules, '@esbuild/linux-x64'), { name: '@esbuild/linux-x64' });
  manifest(path.join(modules, 'fastify'), { name: 'fastify', dependencies: { 'light-my-request': '6' } });
  manifest(path.join(modules, 'light-my-request'), { name: 'light-my-request', dependencies: { cookie: '1' } });
  // Two versions of one package: the nested one wins for its parent.
  manifest(path.join(modules, 'cookie'), { name: 'cookie', version: '1.0.0' });
  manifest(path.join(modules, 'next'), {
    name: 'next',
    dependencies: { cookie: '2' },
    peerDependencies: { react: '19', sass: '1' },
    peerDependenciesMeta: { sass: { optional: true } },
  });
  manifest(path.join(modules, 'next/node_modules/cookie'), { name: 'cookie', version: '2.0.0' });
  manifest(path.join(modules, 'react'), { name: 'react' });
  manifest(path.join(modules, 'sass'), { name: 'sass' });
  manifest(path.join(modules, 'vitest'), { name: 'vitest' });
  return root;
}

describe('runtimePackages', () => {
  it('walks the dependencies as Node resolves them, with tsx, and nothing for development', () => {
    const root = repository({ fastify: '5', next: '16' });
    expect(runtimePackages(root).map((dir) => path.relative(root, dir))).toEqual([
      'node_modules/@esbuild/linux-x64',
      'node_modules/cookie',
      'node_modules/esbuild',
      'node_modules/fastify',
      'node_modules/light-my-request',
      'node_modules/next',
      'node_modules/next/node_modules/cookie',
      'node_modules/react',
      'node_modules/tsx',
    ]);
  });

  it('says which package is missing', () => {
    const root = repository({ pino: '10' });
    expect(() => runtimePackages(root)).toThrow(/pino \(needed by apps\/api\) is not installed/);
  });
});

describe("the CAD engine's font packages", () => {
  it('take only the fonts the engine draws with and their licences, not every weight', () => {
    const modules = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../../node_modules');
    for (const pkg of ['@expo-google-fonts/noto-sans-sc', '@expo-google-fonts/noto-serif-sc', 'dejavu-fonts-ttf']) {
      const kept = keptFiles(pkg) ?? [];
      for (const file of kept) expect(existsSync(path.join(modules, pkg, file)), `${pkg}/${file}`).toBe(true);
      const bytes = kept.reduce((n, file) => n + statSync(path.join(modules, pkg, file)).size, 0);
      // One or two weights of 10-15 MB (or DejaVu's three files), never the whole package.
      expect(bytes, pkg).toBeLessThan(16 << 20);
      expect(kept.some((f) => /LICENSE/.test(f))).toBe(true);
    }
    expect(keptFiles('@expo-google-fonts/noto-sans-sc')).toContain('400Regular/NotoSansSC_400Regular.ttf');
    expect(keptFiles('@expo-google-fonts/noto-sans-sc')).not.toContain('700Bold/NotoSansSC_700Bold.ttf');
    expect(keptFiles('fastify')).toBeNull();
  });
});

describe('the Debian package files', () => {
  it('writes a control file dpkg accepts', () => {
    const control = controlFile({ version: '0.1.0', architecture: 'amd64', installedSizeKiB: 1234 });
    expect(control).toMatch(/^Package: xcad-desktop\nVersion: 0\.1\.0\n/);
    expect(control).toContain('\nDepends: nodejs (>= 20.19), chromium\n');
    expect(control).toContain('\nInstalled-Size: 1234\n');
    // Continuation lines of the description start with a space; the file ends with a newline.
    const description = control.slice(control.indexOf('Description:')).trimEnd().split('\n');
    expect(description.slice(1).every((line) => line.startsWith(' '))).toBe(true);
    expect(control.endsWith('\n')).toBe(true);
  });

  it('maps architectures and versions, refusing what dpkg would', () => {
    expect(debArchitecture('x64')).toBe('amd64');
    expect(debArchitecture('arm64')).toBe('arm64');
    expect(() => debArchitecture('mips')).toThrow(/no Debian architecture/);
    expect(debVersion('1.2.0+build7')).toBe('1.2.0+build7');
    expect(() => debVersion('v1.0')).toThrow(/not a Debian package version/);
    expect(() => debVersion('1.0-beta')).toThrow(/not a Debian package version/);
  });

  it('starts the app from its folder through the menu entry', () => {
    expect(desktopEntry()).toMatch(/^\[Desktop Entry\]\nType=Application\n/);
    expect(desktopEntry()).toMatch(/^StartupWMClass=xcad-desktop$/m);
    expect(launcherScript()).toMatch(/^#!\/bin\/sh\n/);
    expect(launcherScript()).toContain('cd /usr/lib/xcad-desktop\n');
    expect(launcherScript()).toMatch(
      /exec \/usr\/bin\/node --import tsx \/usr\/lib\/xcad-desktop\/apps\/desktop\/src\/shell\/main\.ts --installed "\$@"/,
    );
  });
});
