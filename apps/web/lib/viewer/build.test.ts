import { minsertBombDxf, nestedMinsertDxf } from '@xcad/cad/testing';
import { describe, expect, it } from 'vitest';
import { classifyError, handleBuildRequest } from './build';
import { handMadeDxf } from './test-drawings';
import type { BuildMessage } from './types';

async function run(bytes: Uint8Array | string): Promise<{ messages: BuildMessage[]; transfers: number }> {
  const messages: BuildMessage[] = [];
  let transfers = 0;
  await handleBuildRequest(
    { kind: 'dxf', file: new Blob([bytes as BlobPart]), maxPoints: 1_000_000 },
    {
      postMessage: (m, transfer) => {
        messages.push(m);
        transfers += transfer?.length ?? 0;
      },
    },
  );
  return { messages, transfers };
}

describe('the build worker', () => {
  it('reads a DXF, reports each stage and transfers the packed drawing', async () => {
    const { messages, transfers } = await run(handMadeDxf());
    const stages = messages.filter((m) => m.kind === 'progress').map((m) => (m.kind === 'progress' ? m.stage : ''));
    expect([...new Set(stages)]).toEqual(['reading', 'parsing', 'building', 'packing']);
    // The texts come ahead of the geometry, so the page can draw its glyphs meanwhile.
    const textsAt = messages.findIndex((m) => m.kind === 'texts');
    expect(textsAt).toBeGreaterThan(0);
    const early = messages[textsAt];
    expect(early?.kind === 'texts' && early.lists[0]?.texts.chars).toBe('XCAD 500');
    const done = messages.at(-1);
    expect(done?.kind).toBe('done');
    if (done?.kind !== 'done') return;
    expect(done.drawing.format).toBe('dxf');
    expect(done.drawing.insunits).toBe(4);
    expect(done.drawing.scenes[0]?.name).toBe('Model');
    expect(done.drawing.bytes).toBeGreaterThan(0);
    expect(transfers).toBeGreaterThan(0);
  });

  it('answers a file that is no drawing, and a damaged one, with a reason', async () => {
    const notDrawing = (await run('hello, world')).messages.at(-1);
    expect(notDrawing).toMatchObject({ kind: 'error', error: 'not-drawing' });
    const cut = handMadeDxf().slice(0, 400);
    const damaged = (await run(cut)).messages.at(-1);
    expect(damaged?.kind === 'done' || (damaged?.kind === 'error' && damaged.error === 'corrupt')).toBe(true);
    const empty = (await run('')).messages.at(-1);
    expect(empty).toMatchObject({ kind: 'error', error: 'empty' });
  });

  it('refuses a drawing whose blocks expand into millions of objects, as too complex (decision 0027)', { timeout: 30_000 }, async () => {
    expect((await run(minsertBombDxf(10_000, 1_000))).messages.at(-1)).toMatchObject({ kind: 'error', error: 'too-complex' });
    expect((await run(nestedMinsertDxf(4, 100))).messages.at(-1)).toMatchObject({ kind: 'error', error: 'too-complex' });
  });

  it('classifies memory failures apart from damaged files', () => {
    expect(classifyError(new RangeError('Array buffer allocation failed')).error).toBe('memory');
    expect(
      classifyError(
        Object.assign(new Error('The DWG decoder could not start: WebAssembly.Memory(): could not allocate memory'), {
          name: 'CadReadError',
          reason: 'unsupported',
        }),
      ).error,
    ).toBe('memory');
    expect(
      classifyError(Object.assign(new Error('Unsupported DWG version AC1040'), { name: 'CadReadError', reason: 'unsupported' })).error,
    ).toBe('unsupported');
    expect(classifyError(new TypeError("Cannot read properties of undefined (reading 'x')")).error).toBe('corrupt');
  });
});
