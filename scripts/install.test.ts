import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureInstalled, installNeededIn } from './lib.mjs';

// Decision 0026 (healing install): `cp .env.example .env && npm start` on a fresh clone failed: NODE_ENV=production
// from .env made `npm ci` skip devDependencies (tsx), and the install marker kept later starts from
// installing again. Here ensureInstalled runs the real npm on a small project whose packages are
// local tarballs (no registry needed): one dependency and one devDependency, like tsx.

let dir: string;
const DEV_TOOL = 'xcad-fixture-dev-tool';
const LIBRARY = 'xcad-fixture-library';

/** A package tarball as `npm pack` writes it: the files under `package/`. */
function tarball(name: string): string {
  const source = path.join(dir, 'sources', name, 'package');
  mkdirSync(source, { recursive: true });
  writeFileSync(path.join(source, 'package.json'), JSON.stringify({ name, version: '1.0.0', main: 'index.js' }));
  writeFileSync(path.join(source, 'index.js'), 'module.exports = 1;\n');
  const file = `${name}-1.0.0.tgz`;
  execFileSync('tar', ['-czf', path.join(dir, file), '-C', path.dirname(source), 'package']);
  return `file:${file}`;
}

function withNodeEnv<T>(value: string, action: () => T): T {
  const before = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = value;
  try {
    return action();
  } finally {
    process.env['NODE_ENV'] = before;
  }
}

const installed = (name: string) => existsSync(path.join(dir, 'node_modules', name, 'package.json'));

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'xcad-install-'));
  const manifest = {
    name: 'xcad-install-fixture',
    version: '1.0.0',
    private: true,
    dependencies: { [LIBRARY]: tarball(LIBRARY) },
    devDependencies: { [DEV_TOOL]: tarball(DEV_TOOL) },
  };
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('ensureInstalled (decision 0026)', () => {
  it('installs devDependencies with NODE_ENV=production, then leaves a complete install alone', () => {
    expect(installNeededIn(dir)).toBe('node_modules is missing');
    // The first run writes the lockfile (npm install); the second one installs from it (npm ci), as on a clone.
    withNodeEnv('production', () => ensureInstalled(dir));
    rmSync(path.join(dir, 'node_modules'), { recursive: true });
    expect(withNodeEnv('production', () => ensureInstalled(dir))).toBe(true);
    expect(installed(LIBRARY)).toBe(true);
    expect(installed(DEV_TOOL)).toBe(true);

    expect(installNeededIn(dir)).toBeUndefined();
    expect(withNodeEnv('production', () => ensureInstalled(dir))).toBe(false);
  }, 120_000);

  it('heals an install that lost a package while its marker stayed', () => {
    rmSync(path.join(dir, 'node_modules', DEV_TOOL), { recursive: true });
    expect(existsSync(path.join(dir, 'node_modules', '.package-lock.json'))).toBe(true);
    expect(installNeededIn(dir)).toBe(`node_modules/${DEV_TOOL} is missing`);

    expect(ensureInstalled(dir)).toBe(true);
    expect(installed(DEV_TOOL)).toBe(true);
  }, 120_000);
});
