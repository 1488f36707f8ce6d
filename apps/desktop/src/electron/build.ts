// Prepares the Electron release build (apps/desktop/dist/): the main process and the preload
// bundled into dist/app with a package.json of their own (nothing else goes into the asar), and
// the site the app serves copied into dist/site (electron-builder puts it in the app's resources).
// `npm run electron:prepare --workspace @xcad/desktop`; the README's desktop section has the rest.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { ensureSiteBuild } from '../bundle/site-build';
import { stageSite } from '../bundle/stage-site';

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Bundles main.ts and preload.ts into `outDir` as main.cjs and preload.cjs. */
export async function bundleElectron(outDir: string): Promise<void> {
  const common: BuildOptions = {
    bundle: true,
    format: 'cjs',
    target: 'node22',
    // Electron provides it; everything else is inside the bundle (a sandboxed preload can load
    // no other module).
    external: ['electron'],
    logLevel: 'warning',
    legalComments: 'none',
    minify: true,
  };
  await build({
    ...common,
    platform: 'node',
    entryPoints: [path.join(appDir, 'src', 'electron', 'main.ts')],
    outfile: path.join(outDir, 'main.cjs'),
  });
  await build({
    ...common,
    platform: 'browser',
    entryPoints: [path.join(appDir, 'src', 'electron', 'preload.ts')],
    outfile: path.join(outDir, 'preload.cjs'),
  });
}

/** The package.json electron-builder reads from the app folder. */
export function appManifest(desktopManifest: { version: string }): Record<string, string> {
  return {
    name: 'xcad-desktop',
    productName: '迅捷CAD',
    version: desktopManifest.version,
    description: '迅捷CAD desktop app',
    author: '迅捷CAD <support@xunjiecad.com>',
    license: 'UNLICENSED',
    main: 'main.cjs',
  };
}

async function main(): Promise<void> {
  const root = path.resolve(appDir, '..', '..');
  const dist = path.join(appDir, 'dist');
  const manifest = JSON.parse(readFileSync(path.join(appDir, 'package.json'), 'utf8')) as { version: string };
  rmSync(path.join(dist, 'app'), { recursive: true, force: true });
  rmSync(path.join(dist, 'site'), { recursive: true, force: true });
  mkdirSync(path.join(dist, 'app'), { recursive: true });
  await bundleElectron(path.join(dist, 'app'));
  writeFileSync(path.join(dist, 'app', 'package.json'), `${JSON.stringify(appManifest(manifest), null, 2)}\n`);
  const webDistDir = await ensureSiteBuild(root);
  const report = stageSite({ root, outDir: path.join(dist, 'site'), webDistDir });
  console.info(
    `[xcad-desktop] dist/app bundled; dist/site: ${report.files} files, ${(report.bytes / 1048576).toFixed(0)} MB, ${report.packages.length} packages`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(`[xcad-desktop] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
