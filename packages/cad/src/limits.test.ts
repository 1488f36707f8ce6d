/**
 * The engine's budgets (docs/decisions/0027-bounded-conversions.md) against hostile files made in
 * memory (hostile.testing.ts): each stops the work early with a CadLimitError naming the budget,
 * whoever calls the engine (the conversion workers through convertDrawing and pdfToDrawing, the
 * `cad` command (its own limits.test.ts), the viewer's build worker through buildScenes).
 */
import { describe, expect, it } from 'vitest';
import { convertDrawing } from './convert';
import { buildScenes } from './display/builder';
import { readDxf } from './dxf/reader';
import { CadLimitError } from './errors';
import {
  doublingBlocksDxf,
  flateBomb,
  flateBombPdf,
  manyPagesPdf,
  minsertBombDxf,
  nestedMinsertDxf,
  pdfOf,
  splineDxf,
} from './hostile.testing';
import { ENGINE_LIMITS } from './limits';
import { pdfToDrawing } from './pdf/index';

/** The CadLimitError `work` fails with, or the test fails. */
async function limitOf(work: () => unknown): Promise<CadLimitError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof CadLimitError) return error;
    throw error;
  }
  throw new Error('no budget was exceeded');
}

const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('the drawing budgets', { timeout: 30_000 }, () => {
  it('stops a 200-byte MINSERT of 10^7 copies at the default entities budget', async () => {
    const bytes = minsertBombDxf(10_000, 1_000);
    expect(bytes.length).toBeLessThan(300);
    const error = await limitOf(() => convertDrawing(bytes, { format: 'pdf' }));
    expect(error).toMatchObject({ limit: 'entities', max: ENGINE_LIMITS.entities });
    expect(error.message).toBe('the drawing has more than 3000000 entities once its blocks are expanded');
  });

  it('stops nested MINSERTs and blocks doubling at each level, however deep the expansion goes', async () => {
    const { drawing: nested } = readDxf(nestedMinsertDxf(4, 100));
    expect(await limitOf(() => buildScenes(nested, { limits: { entities: 50_000 } }))).toMatchObject({ limit: 'entities', max: 50_000 });
    const { drawing: doubling } = readDxf(doublingBlocksDxf(23));
    expect(await limitOf(() => buildScenes(doubling, { limits: { entities: 50_000 } }))).toMatchObject({ limit: 'entities', max: 50_000 });
    // An empty block in a grid costs nothing to draw but each copy is still counted.
    const emptyGrid = ascii(
      '0\nSECTION\n2\nBLOCKS\n0\nBLOCK\n8\n0\n2\nE\n70\n0\n10\n0\n20\n0\n0\nENDBLK\n0\nENDSEC\n0\nSECTION\n2\nENTITIES\n0\nINSERT\n8\n0\n2\nE\n10\n0\n20\n0\n70\n10000\n71\n10000\n44\n1\n45\n1\n0\nLINE\n8\n0\n10\n0\n20\n0\n11\n1\n21\n1\n0\nENDSEC\n0\nEOF\n',
    );
    expect(await limitOf(() => buildScenes(readDxf(emptyGrid).drawing, { limits: { entities: 50_000 } }))).toMatchObject({
      limit: 'entities',
    });
  });

  it('refuses past the points budget, or keeps what was drawn when asked to truncate (the viewer)', async () => {
    const { drawing } = readDxf(minsertBombDxf(100, 100));
    expect(await limitOf(() => buildScenes(drawing, { limits: { points: 5_000 } }))).toMatchObject({ limit: 'points', max: 5_000 });
    const truncated = buildScenes(drawing, { limits: { points: 5_000 }, pointLimit: 'truncate' });
    expect(truncated.warnings.map((w) => w.code)).toContain('limit');
    expect(truncated.scenes[0]?.bounds).not.toBeNull();
  });

  it('does not draw a spline of a degree no CAD program writes (de Boor costs degree² a point)', () => {
    const { drawing } = readDxf(splineDxf(2_000, 1_000));
    const build = buildScenes(drawing, { layouts: 'model' });
    expect(build.counts.skipped['SPLINE']).toBe(1);
    expect(build.warnings.map((w) => w.message)).toContain(
      'A SPLINE entity could not be drawn: its degree 1000 is over 11, the highest drawn',
    );
  });

  it('refuses an image over 100 megapixels and an output over its budget', async () => {
    const line = minsertBombDxf(1, 1);
    expect(await limitOf(() => convertDrawing(line, { format: 'png', width: 20_000 }))).toMatchObject({
      limit: 'pixels',
      max: 100_000_000,
    });
    expect(await limitOf(() => convertDrawing(line, { format: 'pdf', limits: { outputBytes: 500 } }))).toMatchObject({
      limit: 'outputBytes',
      max: 500,
    });
    expect((await convertDrawing(line, { format: 'png', width: 2_000 })).outputs).toHaveLength(1);
  });
});

describe('the PDF budgets', { timeout: 30_000 }, () => {
  it('refuses a 1 MB PDF whose content inflates to 1 GiB before pdf.js reads it', async () => {
    const bytes = flateBombPdf(2 ** 30);
    expect(bytes.length).toBeLessThan(1.1 * 2 ** 20);
    const before = process.memoryUsage().rss;
    const error = await limitOf(() => pdfToDrawing(bytes));
    expect(error).toMatchObject({ limit: 'pdfDecodedBytes', max: ENGINE_LIMITS.pdfDecodedBytes });
    // Counted as it inflated, never held: far less than the 256 MB it stopped at.
    expect(process.memoryUsage().rss - before).toBeLessThan(128 * 2 ** 20);
  });

  it('follows a chain of Flate filters, and counts what inflates before damaged data', async () => {
    const twice = flateBomb(64 * 2 ** 20);
    const { deflateSync } = await import('node:zlib');
    const chained = pdfOf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R >>',
      [`<< /Length 5 0 R /Filter [/FlateDecode /Fl] >>`, new Uint8Array(deflateSync(twice))],
      '10',
    ]);
    expect(await limitOf(() => pdfToDrawing(chained, { limits: { pdfDecodedBytes: 32 * 2 ** 20 } }))).toMatchObject({
      limit: 'pdfDecodedBytes',
    });
    // Two streams that break off after 40 MB each: what came out before the damage counts.
    const damaged = flateBomb(40 * 2 ** 20);
    damaged.fill(0xff, damaged.length - 6);
    const broken = pdfOf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [] /Count 0 >>',
      [`<< /Filter /FlateDecode >>`, damaged],
      [`<< /Filter /FlateDecode >>`, damaged],
    ]);
    expect(await limitOf(() => pdfToDrawing(broken, { limits: { pdfDecodedBytes: 64 * 2 ** 20 } }))).toMatchObject({
      limit: 'pdfDecodedBytes',
    });
  });

  it('refuses more pages than its budget at once, and converts a range of them', async () => {
    const bytes = manyPagesPdf(ENGINE_LIMITS.pdfPages + 50);
    expect(await limitOf(() => pdfToDrawing(bytes))).toMatchObject({ limit: 'pdfPages', max: 100 });
    const some = await pdfToDrawing(bytes, { pages: '1-3' });
    expect(some.drawing.modelSpace.length).toBeGreaterThanOrEqual(3);
  });
});
