import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dwgVersion, isDwg, openDwgReader, readDwg } from './dwg-client';
import { CadReadError } from './errors';
import type { LineEntity } from './model';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = readFileSync(path.resolve(here, '../test-fixtures/acs_sample_AC1015.dwg'));
const ascii = (s: string): Uint8Array => new TextEncoder().encode(s);

async function refusal(p: Promise<unknown>): Promise<CadReadError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(CadReadError);
    return e as CadReadError;
  }
  throw new Error('expected a CadReadError');
}

describe('DWG signatures', () => {
  it('tells DWG files and their release from other bytes', () => {
    expect(dwgVersion(fixture)).toBe('AC1015');
    expect(isDwg(fixture)).toBe(true);
    expect(dwgVersion(ascii('AC1032\0\0\0\0'))).toBe('AC1032');
    expect(dwgVersion(ascii('AC1.40\0'))).toBe('AC1.40');
    expect(isDwg(ascii('  0\nSECTION\n  2\nHEADER\n'))).toBe(false);
    expect(isDwg(ascii('%PDF-1.7'))).toBe(false);
    expect(dwgVersion(new Uint8Array(3))).toBeNull();
  });
});

describe('readDwg (the DWG reader as a child process)', () => {
  it('reads a DWG into the drawing model', { timeout: 60_000 }, async () => {
    const { drawing, warnings } = await readDwg(fixture);
    expect(drawing.header.acadVersion).toBe('AC1015');
    expect(drawing.modelSpace).toHaveLength(163);
    const line = drawing.modelSpace.find((e): e is LineEntity => e.handle === '2C7' && e.type === 'LINE');
    expect(line?.start[0]).toBeCloseTo(3.592533998909388, 9);
    expect(line?.end[0]).toBeCloseTo(6.863547033979557, 9);
    expect(drawing.layouts.map((l) => l.name)).toEqual(['Model', 'Layout1', 'Layout2', 'MyLayout']);
    // Shared references survive the trip: a layout's viewports are entities of that layout.
    const layout = drawing.layouts[1];
    expect(layout?.entities?.includes(layout.viewports[0] as never)).toBe(true);
    // Every entity type of the sample is modelled now (TOLERANCE, SHAPE, solids, the underlay: issue 30).
    expect(warnings.some((w) => w.includes('UNKNOWN'))).toBe(false);
  });

  it('refuses a damaged DWG with a one-line reason', { timeout: 60_000 }, async () => {
    const damaged = new Uint8Array(fixture.subarray(0, 4096));
    damaged.fill(0x55, 128);
    const err = await refusal(readDwg(damaged));
    expect(err.reason).toBe('corrupt');
    expect(err.message).toMatch(/^DWG AC1015 is damaged/);
    expect(err.message).not.toContain('\n');
  });

  it('refuses releases LibreDWG does not know, without starting it for non-DWG bytes', { timeout: 60_000 }, async () => {
    const err = await refusal(readDwg(ascii('AC1099\0\0\0\0\0\0 and more bytes')));
    expect(err.reason).toBe('unsupported');
    expect(err.message).toBe('Unsupported DWG version AC1099');
    expect((await refusal(readDwg(ascii('  0\nSECTION\n')))).reason).toBe('corrupt');
    expect((await refusal(readDwg(new Uint8Array(0)))).reason).toBe('empty');
  });

  it('stops the reader after the time limit', { timeout: 30_000 }, async () => {
    const t = performance.now();
    const err = await refusal(readDwg(fixture, { timeoutMs: 50 }));
    expect(err.message).toMatch(/did not finish within 0\.1 s/);
    expect(performance.now() - t).toBeLessThan(5_000);
  });

  it(
    'runs the reader bundled once (cached, reused by the next reads), or from its sources without the bundle',
    { timeout: 60_000 },
    async () => {
      await readDwg(fixture);
      const manifestFile = path.resolve(here, '../node_modules/.cache/cad-dwg/manifest.json');
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { dir: string; inputs: Record<string, string> };
      expect(existsSync(path.join(path.dirname(manifestFile), manifest.dir, 'main.mjs'))).toBe(true);
      expect(Object.keys(manifest.inputs).some((f) => f.endsWith('cad-dwg/src/main.ts'))).toBe(true);
      const again = await readDwg(fixture);
      expect(again.drawing.modelSpace).toHaveLength(163);
      expect((JSON.parse(readFileSync(manifestFile, 'utf8')) as { dir: string }).dir).toBe(manifest.dir);

      const saved = process.env['CAD_NO_BUNDLE'];
      process.env['CAD_NO_BUNDLE'] = '1';
      try {
        const fromSources = await readDwg(fixture);
        expect(fromSources.drawing.modelSpace).toHaveLength(163);
        expect(fromSources.drawing.layouts.map((l) => l.name)).toEqual(again.drawing.layouts.map((l) => l.name));
      } finally {
        if (saved === undefined) delete process.env['CAD_NO_BUNDLE'];
        else process.env['CAD_NO_BUNDLE'] = saved;
      }
    },
  );
});

describe('openDwgReader (one reader process for many files)', () => {
  it('reads file after file in one child, with the results readDwg gives', { timeout: 60_000 }, async () => {
    const reader = openDwgReader();
    try {
      const [a, b] = await Promise.all([reader.read(fixture), reader.read(fixture)]);
      const pid = reader.pid;
      expect(pid).toBeGreaterThan(0);
      const c = await reader.read(fixture);
      expect(reader.pid).toBe(pid);
      const one = await readDwg(fixture);
      for (const r of [a, b, c]) {
        expect(r.drawing.modelSpace).toHaveLength(163);
        expect(r.warnings).toEqual(one.warnings);
        expect(JSON.stringify(r.drawing)).toBe(JSON.stringify(one.drawing));
      }
    } finally {
      await reader.close();
    }
  });

  it('answers a damaged file with the one-line refusal and goes on with the next', { timeout: 60_000 }, async () => {
    const reader = openDwgReader();
    try {
      const damaged = new Uint8Array(fixture.subarray(0, 4096));
      damaged.fill(0x55, 128);
      const [bad, good] = await Promise.allSettled([reader.read(damaged), reader.read(fixture)]);
      expect(bad.status).toBe('rejected');
      const err = (bad as PromiseRejectedResult).reason as CadReadError;
      expect(err).toBeInstanceOf(CadReadError);
      expect(err.reason).toBe('corrupt');
      expect(err.message).toMatch(/^DWG AC1015 is damaged/);
      expect(good.status === 'fulfilled' && good.value.drawing.modelSpace.length).toBe(163);
      expect((await refusal(reader.read(new Uint8Array(0)))).reason).toBe('empty');
      expect((await refusal(reader.read(ascii('  0\nSECTION\n')))).reason).toBe('corrupt');
    } finally {
      await reader.close();
    }
  });

  it('fails the read a crashed child was on, and starts a new child for the next', { timeout: 60_000 }, async () => {
    const reader = openDwgReader();
    try {
      await reader.read(fixture);
      const first = reader.pid as number;
      const inFlight = reader.read(fixture);
      process.kill(first, 'SIGKILL');
      const err = await refusal(inFlight);
      expect(err.reason).toBe('corrupt');
      expect(err.message).toMatch(/stopped \(SIGKILL\)/);
      const after = await reader.read(fixture);
      expect(after.drawing.modelSpace).toHaveLength(163);
      expect(reader.pid).not.toBe(first);
    } finally {
      await reader.close();
    }
  });

  it('kills a child that passes the time limit and restarts for the next read', { timeout: 60_000 }, async () => {
    const reader = openDwgReader({ timeoutMs: 60_000 });
    try {
      await reader.read(fixture);
      const first = reader.pid as number;
      const t = performance.now();
      const err = await refusal(reader.read(fixture, { timeoutMs: 5 }));
      expect(err.message).toBe('The DWG reader did not finish within 0 s (DWG AC1015)');
      expect(performance.now() - t).toBeLessThan(5_000);
      const after = await reader.read(fixture);
      expect(after.drawing.modelSpace).toHaveLength(163);
      expect(reader.pid).not.toBe(first);
      expect(() => process.kill(first, 0)).toThrow();
    } finally {
      await reader.close();
    }
    expect(reader.pid).toBeUndefined();
    expect((await refusal(reader.read(fixture))).message).toBe('The DWG reader was closed');
  });
});
