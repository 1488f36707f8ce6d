import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appManifest, bundleElectron } from './build';

// The release build's bundles: a sandboxed preload can require nothing but `electron`, and the
// main process must find the preload where it is written.

const outDir = mkdtempSync(path.join(os.tmpdir(), 'xcad-electron-bundle-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

function requiredModules(source: string): string[] {
  return [...new Set([...source.matchAll(/\brequire\((["'])([^"']+)\1\)/g)].map((match) => match[2] ?? ''))].sort();
}

describe('bundleElectron', () => {
  it('writes a preload that requires only electron and a main that loads preload.cjs beside it', async () => {
    await bundleElectron(outDir);
    const preload = readFileSync(path.join(outDir, 'preload.cjs'), 'utf8');
    expect(requiredModules(preload)).toEqual(['electron']);
    expect(preload).toContain('exposeInMainWorld');
    const main = readFileSync(path.join(outDir, 'main.cjs'), 'utf8');
    expect(main).toContain('preload.cjs');
    expect(requiredModules(main)).toContain('electron');
    // Node built-ins only besides electron: the app folder ships no node_modules.
    expect(requiredModules(main).filter((name) => name !== 'electron' && !name.startsWith('node:'))).toEqual([]);
  }, 60_000);

  it('names the bundled entry in the app manifest electron-builder reads', () => {
    expect(appManifest({ version: '1.4.0' })).toMatchObject({ name: 'xcad-desktop', version: '1.4.0', main: 'main.cjs' });
  });
});
