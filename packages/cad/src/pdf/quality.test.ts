/**
 * The PDF -> DXF quality bar (docs/decisions/0019-online-conversion.md), over every corpus PDF
 * (../shared/corpus/pdf), or without the corpus over PDFs generated here:
 *
 * 1. Our DXF (pdfToDrawing, then writeDxf 2018) keeps at least as many straight segments, curves
 *    and text items as pstoedit's (`pstoedit -psarg "-dNEWPDF=false" -f "dxf_s:-mm" in.pdf
 *    out.dxf`), both counted by one function: see `segment-count.ts` for what counts as what and
 *    what is left out on both sides (glyph outlines of the PDF's text, the page background's
 *    outline, zero-length segments).
 * 2. The text of our TEXT entities is the PDF's text (pdftotext's, character for character, spaces
 *    and line breaks aside).
 * 3. Our DXF rendered back through our own engine (DXF -> PNG) and the PDF's own render (pdftoppm,
 *    at the page's exact pixel size) have ink F1 >= 0.9 after cropping both to their ink box and
 *    scaling to 1024 px, 2 px tolerance (`ink-compare.ts`, as the CAD bench compares; no trimming
 *    of stray ink: a PDF page has none, and trimming a fraction of the ink moves the box of a thin
 *    edge line more than that of a thick one). A page with images is
 *    compared with its vector content only (Ghostscript's -dFILTERIMAGE render): images are not
 *    converted, and the notes must say so; the F1 against the full render is printed as well.
 * 4. A PDF with nothing but images is refused with RASTER_ONLY_MESSAGE (its vector-only render is
 *    blank, its full render is not); a page showing nothing (a background fill at most) is refused
 *    as blank, and its own render has no ink.
 *
 * pstoedit, pdftoppm and Ghostscript run as processes while our conversion runs in this one.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { convertDrawing } from '../convert';
import { writeDxf } from '../dxf-writer/writer';
import { readDxf } from '../dxf/index';
import { CadReadError } from '../errors';
import { compareInk, inkBounds, inkCount, inkMask, type RgbaImage } from '../ink-compare';
import type { Drawing } from '../model';
import { pdfToDrawing, RASTER_ONLY_MESSAGE } from './index';
import { countSegments, wordBoxes, type SegmentCount } from './segment-count';
import { darkPlotFixture, mainFixture, rasterFixture } from './test-helpers';

const here = dirname(fileURLToPath(import.meta.url));
const CORPUS = process.env.CAD_CORPUS ?? resolve(here, '../../../../../shared/corpus');
const hasCorpus = existsSync(join(CORPUS, 'pdf'));
const tmp = mkdtempSync(join(tmpdir(), 'pdf-quality-'));

/** Rendering width for both images; the comparison crops to the ink and scales to 1024 px. */
const RENDER_WIDTH = 2048;
const F1_WIDTH = 1024;
const TARGET_F1 = 0.9;

function tool(cmd: string, args: string[], timeout = 120_000): Promise<Buffer> {
  return new Promise((done, fail) => {
    execFile(cmd, args, { encoding: 'buffer', maxBuffer: 256 << 20, timeout }, (err, stdout, stderr) => {
      if (err) fail(new Error(`${cmd} ${args.join(' ')}: ${err.message}\n${stderr.toString().slice(-500)}`));
      else done(stdout);
    });
  });
}

async function decodePng(bytes: Uint8Array): Promise<RgbaImage> {
  const img = await loadImage(bytes);
  const canvas = createCanvas(img.width, img.height);
  const g = canvas.getContext('2d');
  g.drawImage(img, 0, 0);
  return { width: img.width, height: img.height, data: g.getImageData(0, 0, img.width, img.height).data };
}

/** Page 1's size in points, as shown (rotation applied). */
async function pageSize(pdf: string): Promise<[number, number]> {
  const info = (await tool('pdfinfo', ['-f', '1', '-l', '1', pdf])).toString('latin1');
  const size = /Page\s+1 size:\s+([\d.]+) x ([\d.]+)/.exec(info);
  const rot = Number(/Page\s+1 rot:\s+(\d+)/.exec(info)?.[1] ?? 0);
  if (!size) throw new Error(`pdfinfo found no page size in ${pdf}`);
  const [w, h] = [Number(size[1]), Number(size[2])];
  return rot % 180 ? [h, w] : [w, h];
}

/**
 * Page 1 rendered at exactly RENDER_WIDTH x height pixels, so the page edge falls on the pixel
 * grid (a partly covered edge pixel would show the white under a dark background as a line).
 */
async function reference(pdf: string, vectorOnly: boolean): Promise<RgbaImage> {
  const [w, h] = await pageSize(pdf);
  const height = Math.max(1, Math.round((RENDER_WIDTH * h) / w));
  const out = join(tmp, `${basename(pdf)}.${vectorOnly ? 'vector' : 'full'}`);
  if (vectorOnly)
    await tool('gs', [
      '-q',
      '-dSAFER',
      '-dBATCH',
      '-dNOPAUSE',
      '-dFILTERIMAGE',
      '-sDEVICE=png16m',
      `-g${RENDER_WIDTH}x${height}`,
      '-dPDFFitPage',
      '-dFirstPage=1',
      '-dLastPage=1',
      `-sOutputFile=${out}.png`,
      pdf,
    ]);
  else
    await tool('pdftoppm', [
      '-f',
      '1',
      '-l',
      '1',
      '-scale-to-x',
      String(RENDER_WIDTH),
      '-scale-to-y',
      String(height),
      '-png',
      '-singlefile',
      pdf,
      out,
    ]);
  return decodePng(readFileSync(`${out}.png`));
}

/** pstoedit's DXF of page 1, as the issue runs it (with -page 1 when the PDF has more pages). */
async function pstoedit(pdf: string, pages: number): Promise<{ drawing: Drawing; ms: number }> {
  const out = join(tmp, `${basename(pdf)}.pstoedit.dxf`);
  const t = performance.now();
  // -q: no banner. Its warning about the deprecated legacy interpreter goes to stderr.
  await tool('pstoedit', ['-q', ...(pages > 1 ? ['-page', '1'] : []), '-psarg', '-dNEWPDF=false', '-f', 'dxf_s:-mm', pdf, out], 300_000);
  const ms = performance.now() - t;
  return { drawing: readDxf(readFileSync(out)).drawing, ms };
}

const nonSpace = (s: string): string => s.replace(/\s+/g, '');
const sortedChars = (s: string): string => [...nonSpace(s)].sort().join('');

interface Row {
  name: string;
  outcome: 'converted' | 'raster-only' | 'blank';
  ours?: SegmentCount;
  theirs?: SegmentCount;
  f1?: number;
  /** F1 against the full render, for pages whose images were not converted. */
  fullF1?: number;
  oursMs?: number;
  theirsMs?: number;
}
const rows: Row[] = [];

interface Case {
  name: string;
  /** The PDF's path (written first, for the generated ones). */
  path: () => Promise<string>;
}

async function generated(name: string, make: () => Promise<Uint8Array>): Promise<string> {
  const path = join(tmp, name);
  writeFileSync(path, await make());
  return path;
}

const cases: Case[] = hasCorpus
  ? readdirSync(join(CORPUS, 'pdf'))
      .filter((n) => n.toLowerCase().endsWith('.pdf'))
      .sort()
      .map((name) => ({ name, path: () => Promise.resolve(join(CORPUS, 'pdf', name)) }))
  : [
      { name: 'main-page1.pdf', path: () => generated('main-page1.pdf', () => mainFixture(true)) },
      { name: 'dark-plot.pdf', path: () => generated('dark-plot.pdf', darkPlotFixture) },
      { name: 'raster-only.pdf', path: () => generated('raster-only.pdf', () => rasterFixture(1)) },
    ];

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
  const fmt = (c?: SegmentCount): string => (c ? `${c.lines}/${c.curves}/${c.texts}` : '-');
  const lines = rows.map(
    (r) =>
      `  ${r.name}: ${r.outcome}; ours ${fmt(r.ours)} vs pstoedit ${fmt(r.theirs)} (lines/curves/texts); F1 ${r.f1?.toFixed(3) ?? '-'}${r.fullF1 !== undefined ? ` (against the render with images: ${r.fullF1.toFixed(3)})` : ''}; ours ${r.oursMs?.toFixed(0) ?? '-'} ms, pstoedit ${r.theirsMs?.toFixed(0) ?? '-'} ms`,
  );
  console.info(`PDF -> DXF quality over ${hasCorpus ? 'the corpus' : 'generated PDFs'} (${rows.length} files):\n${lines.join('\n')}`);
});

describe(`PDF -> DXF against pstoedit and the PDF's own render (${hasCorpus ? 'corpus' : 'generated PDFs, no corpus'})`, () => {
  it('has PDFs to check', () => {
    expect(cases.length).toBeGreaterThanOrEqual(hasCorpus ? 12 : 3);
  });

  it.each(cases.map((c) => [c.name, c] as const))(
    '%s: as many segments and texts as pstoedit, the same text, ink F1 >= 0.9, or a clear refusal',
    async (name, c) => {
      const path = await c.path();
      const bytes = readFileSync(path);
      // The other programs run while this process converts.
      const pages = Number(/Pages:\s+(\d+)/.exec((await tool('pdfinfo', [path])).toString('latin1'))?.[1] ?? 1);
      const full = reference(path, false);
      const vector = reference(path, true);
      const words = tool('pdftotext', ['-f', '1', '-l', '1', '-bbox', path, '-']);
      const plain = tool('pdftotext', ['-f', '1', '-l', '1', '-raw', path, '-']);
      // A rejection is reported where it is awaited, not as an unhandled one meanwhile.
      for (const p of [full, vector, words, plain]) p.catch(() => undefined);

      const t = performance.now();
      let read;
      try {
        read = await pdfToDrawing(bytes, { pages: '1' });
      } catch (err) {
        if (!(err instanceof CadReadError) || err.reason !== 'empty') throw err;
        const [fullInk, vectorInk] = [inkCount(inkMask(await full)), inkCount(inkMask(await vector))];
        if (err.message === RASTER_ONLY_MESSAGE) {
          rows.push({ name, outcome: 'raster-only' });
          expect(fullInk, 'an image-only page shows something').toBeGreaterThan(0);
          expect(vectorInk, 'an image-only page has no vector content').toBe(0);
        } else {
          rows.push({ name, outcome: 'blank' });
          expect(fullInk, `refused as blank (${err.message}): its own render must show nothing`).toBe(0);
        }
        return;
      }
      const dxf = writeDxf(read.drawing, { version: '2018' }).bytes;
      const oursMs = performance.now() - t;
      const theirs = pstoedit(path, pages);
      theirs.catch(() => undefined);
      const back = readDxf(dxf).drawing;
      const boxes = wordBoxes((await words).toString('utf8'));
      if (!boxes) throw new Error(`pdftotext -bbox found no page in ${name}`);
      const ours = countSegments(back.modelSpace, boxes);
      const them = await theirs;
      const theirCount = countSegments(them.drawing.modelSpace, boxes);
      const row: Row = { name, outcome: 'converted', ours, theirs: theirCount, oursMs, theirsMs: them.ms };
      rows.push(row);
      expect(ours.lines, 'straight segments').toBeGreaterThanOrEqual(theirCount.lines);
      expect(ours.curves, 'curves').toBeGreaterThanOrEqual(theirCount.curves);
      expect(ours.texts, 'text items').toBeGreaterThanOrEqual(theirCount.texts);

      // The text, character for character.
      const texts = back.modelSpace.flatMap((e) => (e.type === 'TEXT' || e.type === 'MTEXT' ? [e.text] : []));
      expect(sortedChars(texts.join('')), 'the characters of the PDF text').toBe(sortedChars((await plain).toString('utf8')));

      // Ink: our DXF drawn by our engine against the PDF's own render, ours drawn as wide as the
      // reference's ink (our render fits the drawing to the image), so both have the same scale.
      const images = read.notes.some((n) => /images? not converted/.test(n));
      const ref = images ? await vector : await full;
      const box = inkBounds(inkMask(ref));
      const png = (await convertDrawing(dxf, { format: 'png', width: Math.max(64, box ? box.x1 - box.x0 + 1 : RENDER_WIDTH) })).outputs[0]
        ?.data;
      if (!png) throw new Error(`${name}: no PNG rendered`);
      const mine = await decodePng(png);
      const score = compareInk(mine, ref, { width: F1_WIDTH, tolerance: 2 });
      row.f1 = score?.f1 ?? 0;
      if (images) row.fullF1 = compareInk(mine, await full, { width: F1_WIDTH, tolerance: 2 })?.f1 ?? 0;
      expect(row.f1, `ink F1 (precision ${score?.precision.toFixed(3)}, recall ${score?.recall.toFixed(3)})`).toBeGreaterThanOrEqual(
        TARGET_F1,
      );
    },
    400_000,
  );
});
