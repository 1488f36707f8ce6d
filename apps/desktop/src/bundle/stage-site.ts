import {
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  symlinkSync,
} from 'node:fs';
import path from 'node:path';
import { SHIPPED_FONTS, SHIPPED_FONT_NOTICES } from '@xcad/cad/text';

// A copy of what the installed desktop app runs: the root scripts, the content, the workspaces'
// sources without their tests, the web app's production build (as apps/web/.next, without
// Next's build cache) and the node_modules the servers and the shell load at run time, found by
// walking the dependencies from the workspaces (plus tsx, which runs the TypeScript sources).
// Used by the .deb and by the Electron build (which puts it in the app's resources).

/** The workspaces the app runs (not e2e, not bench). */
export const RUNTIME_WORKSPACES = [
  'packages/protocol',
  'packages/db',
  'packages/cad',
  'packages/cad-dwg',
  'apps/api',
  'apps/web',
  'apps/desktop',
] as const;
/** Run-time tools the workspaces do not list: the servers are started with `node --import tsx`. */
const RUNTIME_TOOLS = ['tsx'];
const TOP_LEVEL_FILES = ['package.json', 'tsconfig.base.json', 'scripts/lib.mjs', 'scripts/lib.d.mts'];
const TOP_LEVEL_DIRS = ['content'];

const SKIPPED_NAMES = new Set(['node_modules', 'test-fixtures', 'dist', '.git', '.turbo', 'coverage']);
function isSkipped(name: string): boolean {
  return (
    SKIPPED_NAMES.has(name) ||
    name.startsWith('.next') ||
    /\.(test|spec|integration\.test|api\.test)\.tsx?$/.test(name) ||
    name === 'next-env.d.ts'
  );
}

export interface StageOptions {
  /** The repository root. */
  readonly root: string;
  /** An empty or missing folder to fill. */
  readonly outDir: string;
  /** The web build folder under apps/web (`.next`, or an e2e build's `.next-e2e-…`). */
  readonly webDistDir: string;
  /** Hard-link files instead of copying them (same file system, nothing will edit them). */
  readonly link?: boolean;
}

export interface StageReport {
  readonly files: number;
  readonly bytes: number;
  /** The node_modules packages taken, relative to the root (e.g. node_modules/next). */
  readonly packages: readonly string[];
}

export class StageError extends Error {
  override readonly name = 'StageError';
}

/**
 * The files the app takes of a package it uses only in part, null for a whole package: the CAD
 * engine's font packages carry every weight (57-69 MB), the engine draws with one or two files
 * of each (decision 0025); their licence and notice files go along.
 */
export function keptFiles(packageName: string): string[] | null {
  const notices = SHIPPED_FONT_NOTICES[packageName];
  if (!notices) return null;
  return [
    ...notices,
    ...Object.values(SHIPPED_FONTS)
      .filter((f) => f.pkg === packageName)
      .map((f) => f.file),
  ];
}

interface Manifest {
  name?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** Node's lookup: `name` in the nearest node_modules from `fromDir` up to the root; null if absent. */
function resolvePackage(root: string, fromDir: string, name: string): string | null {
  let dir = fromDir;
  for (;;) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === root || !dir.startsWith(root)) return null;
    dir = path.dirname(dir);
  }
}

/** The node_modules folders (absolute, as installed) the runtime workspaces need. */
export function runtimePackages(root: string): string[] {
  const found = new Set<string>();
  const queue: Array<{ dir: string; names: string[]; optional: Set<string> }> = [];
  const enqueue = (dir: string, manifest: Manifest, extra: string[] = []) => {
    // A peer marked optional is the user's choice (next-intl's typescript): it stays out.
    const peers = Object.keys(manifest.peerDependencies ?? {}).filter((name) => manifest.peerDependenciesMeta?.[name]?.optional !== true);
    const optional = new Set([...Object.keys(manifest.optionalDependencies ?? {}), ...peers]);
    queue.push({ dir, names: [...Object.keys(manifest.dependencies ?? {}), ...optional, ...extra], optional });
  };
  for (const workspace of RUNTIME_WORKSPACES) enqueue(path.join(root, workspace), readManifest(path.join(root, workspace)));
  enqueue(root, {}, RUNTIME_TOOLS);

  while (queue.length > 0) {
    const { dir, names, optional } = queue.pop()!;
    for (const name of names) {
      if (name.startsWith('@xcad/')) continue;
      const located = resolvePackage(root, dir, name);
      if (located === null) {
        // Optional dependencies of other platforms and peers nobody installed are not there.
        if (optional.has(name)) continue;
        throw new StageError(`${name} (needed by ${path.relative(root, dir) || 'the root'}) is not installed: run npm ci first`);
      }
      if (found.has(located)) continue;
      found.add(located);
      enqueue(located, readManifest(located));
    }
  }
  return [...found].sort();
}

class Stager {
  files = 0;
  bytes = 0;

  constructor(private readonly link: boolean) {}

  file(from: string, to: string): void {
    mkdirSync(path.dirname(to), { recursive: true });
    if (this.link) linkSync(from, to);
    else copyFileSync(from, to);
    this.files += 1;
    this.bytes += lstatSync(from).size;
  }

  /** Copies a tree; `skip` decides which names (files or folders) stay behind. */
  tree(from: string, to: string, skip: (name: string, full: string) => boolean): void {
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      const source = path.join(from, entry.name);
      if (skip(entry.name, source)) continue;
      const target = path.join(to, entry.name);
      if (entry.isSymbolicLink()) {
        mkdirSync(to, { recursive: true });
        symlinkSync(readlinkSync(source), target);
      } else if (entry.isDirectory()) {
        this.tree(source, target, skip);
      } else if (entry.isFile()) {
        this.file(source, target);
      }
    }
  }
}

/** Fills `outDir` with the app's run-time copy of the site. */
export function stageSite(options: StageOptions): StageReport {
  const root = realpathSync(options.root);
  const out = path.resolve(options.outDir);
  if (existsSync(out) && readdirSync(out).length > 0) throw new StageError(`${out} is not empty`);
  const build = path.join(root, 'apps', 'web', options.webDistDir);
  if (!existsSync(path.join(build, 'BUILD_ID'))) throw new StageError(`no web build at ${build}: build the site first (npm run build)`);

  const stager = new Stager(options.link ?? false);
  for (const file of TOP_LEVEL_FILES) stager.file(path.join(root, file), path.join(out, file));
  for (const dir of TOP_LEVEL_DIRS) stager.tree(path.join(root, dir), path.join(out, dir), () => false);
  for (const workspace of RUNTIME_WORKSPACES) {
    stager.tree(path.join(root, workspace), path.join(out, workspace), (name) => isSkipped(name));
    // The workspace links npm makes (node_modules/@xcad/<name> -> ../../<workspace>).
    const name = JSON.parse(readFileSync(path.join(root, workspace, 'package.json'), 'utf8')).name as string;
    const link = path.join(out, 'node_modules', name);
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(path.relative(path.dirname(link), path.join(out, workspace)), link);
  }
  // Next's build cache is for the next build, not for serving.
  stager.tree(build, path.join(out, 'apps', 'web', '.next'), (name, full) => name === 'cache' && path.dirname(full) === build);

  const packages = runtimePackages(root);
  for (const dir of packages) {
    const target = path.join(out, path.relative(root, dir));
    const kept = keptFiles(readManifest(dir).name ?? '');
    if (kept) for (const file of kept) stager.file(path.join(dir, file), path.join(target, file));
    else stager.tree(dir, target, (name, full) => name === 'node_modules' && path.dirname(full) === dir);
  }
  return { files: stager.files, bytes: stager.bytes, packages: packages.map((dir) => path.relative(root, dir)) };
}
