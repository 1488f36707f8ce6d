import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stageSite } from './stage-site';

// The Debian package of the Chromium app-mode shell, built with dpkg-deb: the site's run-time
// copy under /usr/lib/xcad-desktop, a launcher in /usr/bin, a menu entry and the icon. It needs
// Debian's chromium and a Node.js the site supports; it carries its own node_modules, so it is
// built for the architecture its native modules were installed for.

export const DEB_PACKAGE = 'xcad-desktop';
export const INSTALL_DIR = `/usr/lib/${DEB_PACKAGE}`;
/** The oldest Node.js the site runs on (root package.json engines). */
export const MIN_NODE_VERSION = '20.19';

export interface DebOptions {
  readonly root: string;
  /** Where the .deb is written. */
  readonly outDir: string;
  /** The web build folder under apps/web to ship (as .next). */
  readonly webDistDir: string;
  readonly version: string;
  /** Node's process.arch of the installed native modules; this machine's by default. */
  readonly arch?: string;
  /** dpkg-deb compression: xz (smallest, default), zstd (fast) or gzip. */
  readonly compression?: 'xz' | 'zstd' | 'gzip';
}

export interface DebResult {
  readonly file: string;
  readonly installedSizeKiB: number;
}

export class DebBuildError extends Error {
  override readonly name = 'DebBuildError';
}

export function debArchitecture(nodeArch: string): string {
  const map: Record<string, string> = {
    x64: 'amd64',
    arm64: 'arm64',
    ia32: 'i386',
    arm: 'armhf',
    ppc64: 'ppc64el',
    s390x: 's390x',
    riscv64: 'riscv64',
  };
  const arch = map[nodeArch];
  if (!arch) throw new DebBuildError(`no Debian architecture for ${nodeArch}`);
  return arch;
}

/** A Debian version: digits first, then what dpkg allows (no hyphen: there is no Debian revision). */
export function debVersion(version: string): string {
  if (!/^\d[A-Za-z0-9.+~]*$/.test(version)) throw new DebBuildError(`"${version}" is not a Debian package version`);
  return version;
}

export function controlFile(fields: { version: string; architecture: string; installedSizeKiB: number }): string {
  return [
    `Package: ${DEB_PACKAGE}`,
    `Version: ${debVersion(fields.version)}`,
    'Section: graphics',
    'Priority: optional',
    `Architecture: ${fields.architecture}`,
    `Depends: nodejs (>= ${MIN_NODE_VERSION}), chromium`,
    'Recommends: xdg-utils',
    `Installed-Size: ${fields.installedSizeKiB}`,
    'Maintainer: 迅捷CAD <support@xunjiecad.com>',
    'Homepage: https://www.xunjiecad.com/',
    'Description: 迅捷CAD desktop app',
    ' The 迅捷CAD site (CAD software, online conversion, tutorials, drawings and',
    ' memberships) in its own window: Chromium in app mode, with the site served',
    ' from this computer and its data kept in ~/.local/share/xcad-desktop.',
    '',
  ].join('\n');
}

export function desktopEntry(): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Version=1.5',
    'Name=Xunjie CAD',
    'Name[zh_CN]=迅捷CAD',
    'GenericName=CAD software and online conversion',
    'GenericName[zh_CN]=CAD软件与在线转换',
    'Comment=CAD editor, converter, tutorials and drawings',
    'Comment[zh_CN]=CAD编辑器、CAD转换、CAD教程和图纸',
    `Exec=${DEB_PACKAGE}`,
    `Icon=${DEB_PACKAGE}`,
    'Terminal=false',
    'Categories=Graphics;Engineering;',
    `StartupWMClass=${DEB_PACKAGE}`,
    '',
  ].join('\n');
}

export function launcherScript(): string {
  return [
    '#!/bin/sh',
    '# The 迅捷CAD desktop app (Chromium app mode). Node resolves `--import tsx` from the',
    '# working directory, so the app runs from its own folder; its data is per user.',
    'set -e',
    `cd ${INSTALL_DIR}`,
    `exec /usr/bin/node --import tsx ${INSTALL_DIR}/apps/desktop/src/shell/main.ts --installed "$@"`,
    '',
  ].join('\n');
}

function copyrightFile(): string {
  return [
    'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/',
    `Upstream-Name: ${DEB_PACKAGE}`,
    '',
    'Files: *',
    'Copyright: 迅捷CAD',
    'License: proprietary',
    '',
    `Files: ${INSTALL_DIR.slice(1)}/packages/cad-dwg/* ${INSTALL_DIR.slice(1)}/node_modules/@mlightcad/libredwg-web/*`,
    'Copyright: the LibreDWG authors and the @mlightcad/libredwg-web authors',
    'License: GPL-3.0-or-later',
    ' The DWG reader runs as a separate program (docs/decisions/0016-dwg-reader-licence.md).',
    '',
    `Files: ${INSTALL_DIR.slice(1)}/node_modules/*`,
    'Copyright: the authors of each package, as its own LICENSE file says',
    'License: various (see each package)',
    '',
  ].join('\n');
}

function directorySizeKiB(root: string): number {
  const result = spawnSync('du', ['-sk', '--apparent-size', root], { encoding: 'utf8' });
  const kib = Number(result.stdout.split('\t')[0]);
  if (result.status !== 0 || !Number.isFinite(kib)) throw new DebBuildError(`du failed on ${root}: ${result.stderr}`);
  return kib;
}

/** Builds dist/xcad-desktop_<version>_<arch>.deb; the staging folder sits beside it and is removed. */
export function buildDeb(options: DebOptions): DebResult {
  const architecture = debArchitecture(options.arch ?? process.arch);
  const version = debVersion(options.version);
  mkdirSync(options.outDir, { recursive: true });
  // Staged next to the output (inside the repository's dist/, one file system): files are hard links.
  const staging = mkdtempSync(path.join(options.outDir, '.deb-staging-'));
  try {
    chmodSync(staging, 0o755);
    const dir = (relative: string) => {
      const full = path.join(staging, relative);
      mkdirSync(full, { recursive: true, mode: 0o755 });
      return full;
    };
    stageSite({ root: options.root, outDir: path.join(staging, INSTALL_DIR), webDistDir: options.webDistDir, link: true });

    const launcher = path.join(dir('usr/bin'), DEB_PACKAGE);
    writeFileSync(launcher, launcherScript(), { mode: 0o755 });
    chmodSync(launcher, 0o755);
    writeFileSync(path.join(dir('usr/share/applications'), `${DEB_PACKAGE}.desktop`), desktopEntry(), { mode: 0o644 });
    const icons = path.join(options.root, 'apps', 'desktop', 'build');
    copyFileSync(path.join(icons, 'icon-256.png'), path.join(dir('usr/share/icons/hicolor/256x256/apps'), `${DEB_PACKAGE}.png`));
    copyFileSync(path.join(icons, 'icon.png'), path.join(dir('usr/share/icons/hicolor/512x512/apps'), `${DEB_PACKAGE}.png`));
    copyFileSync(path.join(icons, 'icon.svg'), path.join(dir('usr/share/icons/hicolor/scalable/apps'), `${DEB_PACKAGE}.svg`));
    writeFileSync(path.join(dir(`usr/share/doc/${DEB_PACKAGE}`), 'copyright'), copyrightFile(), { mode: 0o644 });

    const installedSizeKiB = directorySizeKiB(path.join(staging, 'usr'));
    writeFileSync(path.join(dir('DEBIAN'), 'control'), controlFile({ version, architecture, installedSizeKiB }), { mode: 0o644 });

    const file = path.join(options.outDir, `${DEB_PACKAGE}_${version}_${architecture}.deb`);
    rmSync(file, { force: true });
    const compression = options.compression ?? 'xz';
    const built = spawnSync('dpkg-deb', ['--root-owner-group', `-Z${compression}`, '--build', staging, file], { encoding: 'utf8' });
    if (built.status !== 0) throw new DebBuildError(`dpkg-deb failed: ${(built.stderr || built.stdout || String(built.error)).trim()}`);
    return { file, installedSizeKiB };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** `npm run desktop:deb`: builds the web app if needed, then the package into apps/desktop/dist. */
export async function main(root: string): Promise<void> {
  const { ensureSiteBuild } = await import('./site-build');
  const manifest = JSON.parse(readFileSync(path.join(root, 'apps', 'desktop', 'package.json'), 'utf8')) as { version: string };
  const webDistDir = await ensureSiteBuild(root);
  const compression = process.env.XCAD_DEB_COMPRESSION;
  if (compression !== undefined && !['xz', 'zstd', 'gzip'].includes(compression)) {
    throw new DebBuildError(`XCAD_DEB_COMPRESSION must be xz, zstd or gzip, not "${compression}"`);
  }
  const result = buildDeb({
    root,
    outDir: path.join(root, 'apps', 'desktop', 'dist'),
    webDistDir,
    version: manifest.version,
    compression: compression as DebOptions['compression'],
  });
  console.info(`[xcad-desktop] built ${path.relative(root, result.file)} (${(result.installedSizeKiB / 1024).toFixed(0)} MB installed)`);
}
