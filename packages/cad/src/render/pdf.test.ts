import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { buildScenes } from '../display/builder';
import { readDxf } from '../dxf/index';
import { entitiesDxf } from '../dxf/test-helpers';
import { renderScenes } from './index';
import { shippedFontFile } from '../text/node-fonts';
import { CJK_FONT, LATIN_FONT, STYLES, layoutScene, list, modelScene, sampleScene, stroke, text } from './test-scenes';

const dir = mkdtempSync(join(tmpdir(), 'xcad-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function latin1(b: Uint8Array): string {
  return Buffer.from(b).toString('latin1');
}

function mediaBoxes(pdf: Uint8Array): number[][] {
  return [...latin1(pdf).matchAll(/\/MediaBox\s*\[([^\]]+)\]/g)].map((m) => (m[1] as string).trim().split(/\s+/).map(Number));
}

/** The page content streams (pdfkit starts each with its y-flip), inflated when compressed. */
function contents(pdf: Uint8Array): string[] {
  const s = latin1(pdf);
  const out: string[] = [];
  for (const m of s.matchAll(/<<([^]*?)>>\s*stream\r?\n/g)) {
    const dict = m[1] as string;
    const len = Number(/\/Length (\d+)/.exec(dict)?.[1]);
    const start = (m.index as number) + m[0].length;
    const raw = Buffer.from(s.slice(start, start + len), 'latin1');
    let body: string;
    try {
      body = /FlateDecode/.test(dict) ? inflateSync(raw).toString('latin1') : raw.toString('latin1');
    } catch {
      continue;
    }
    if (/^1 0 0 -1 0 [\d.]+ cm/.test(body)) out.push(body);
  }
  return out;
}

function pdftotext(pdf: Uint8Array, ...args: string[]): string {
  if (!existsSync('/usr/bin/pdftotext')) throw new Error('pdftotext is missing: install poppler-utils (apt-get install poppler-utils)');
  const file = join(dir, `t${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('/usr/bin/pdftotext', [...args, file, '-'], { encoding: 'utf8' });
}

describe('PDF', () => {
  it('sizes pages: A3 landscape, forced portrait, a layout on its A4 sheet, one page per scene', async () => {
    const a3 = await renderScenes([sampleScene()], { format: 'pdf', paper: 'A3' });
    expect(latin1(a3.subarray(0, 5))).toBe('%PDF-');
    const [box] = mediaBoxes(a3);
    expect(box?.[2]).toBeCloseTo(1190.55, 1);
    expect(box?.[3]).toBeCloseTo(841.89, 1);
    const portrait = await renderScenes([sampleScene()], { format: 'pdf', paper: 'A3', orientation: 'portrait' });
    expect(mediaBoxes(portrait)[0]?.[2]).toBeCloseTo(841.89, 1);
    const both = await renderScenes([sampleScene(), layoutScene()], { format: 'pdf' });
    const boxes = mediaBoxes(both);
    expect(boxes).toHaveLength(2);
    // Model: fitted to a page 420 mm wide; layout: its A4 sheet.
    expect(boxes[0]?.[2]).toBeCloseTo(1190.55, 1);
    expect(boxes[1]?.[2]).toBeCloseTo(595.28, 1);
    expect(boxes[1]?.[3]).toBeCloseTo(841.89, 1);
  });

  it('writes real text: pdftotext reads back Latin and Chinese, at the right place', async () => {
    const pdf = await renderScenes([sampleScene()], { format: 'pdf', paper: 'A3' });
    const txt = pdftotext(pdf);
    expect(txt).toContain('Hello CAD');
    expect(txt).toContain('中文测试');
    // Placement: 'Hello' starts at model (20, 70) → page x = 5 + 20·2.05 mm, baseline y from the top.
    const bbox = pdftotext(pdf, '-bbox');
    const word = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">Hello<\/word>/.exec(bbox);
    expect(word).not.toBeNull();
    const mm = (pt: number): number => (pt * 25.4) / 72;
    const s = 410 / 200;
    expect(mm(Number(word?.[1]))).toBeCloseTo(5 + 20 * s, 0);
    const top = (297 - 100 * s) / 2;
    const baseline = top + (100 - 70) * s;
    expect(mm(Number(word?.[4]))).toBeGreaterThan(baseline - 1);
    expect(mm(Number(word?.[2]))).toBeLessThan(baseline - 8 * s * 0.6);
  });

  it('embeds a subset of the CJK font a FontRef names by file (the shipped Noto Sans SC)', async () => {
    const file = shippedFontFile('cjkSans');
    expect(file, 'the shipped font comes with npm ci').toBeTruthy();
    const named = { ...CJK_FONT, file: file as string, substituted: false };
    const scene = modelScene(list([text(0, '图纸 Drawing 标题', 0, 0, 5, 0), stroke(0, [0, -5, 60, -5])], STYLES, [named]));
    const pdf = await renderScenes([scene], { format: 'pdf' });
    expect(pdftotext(pdf)).toContain('图纸 Drawing 标题');
    expect(latin1(pdf)).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansSC-Regular/);
    // A subset: a few glyphs of a 10 MB font.
    expect(pdf.length).toBeLessThan(30_000);
  });

  it('reuses a parsed font across documents without carrying one document into the next', async () => {
    // A long-lived process (the resident engine, a conversion worker) keeps fontkit's parse of the
    // CJK face: the second PDF of the same text must come out exactly as the first, although
    // another document with other characters used the font in between.
    const scene = (s: string) => modelScene(list([text(0, s, 0, 0, 5, 0), stroke(0, [0, -5, 60, -5])], STYLES, [CJK_FONT]));
    const undated = (pdf: Uint8Array): string =>
      latin1(pdf)
        .replace(/\(D:\d{14}[^)]*\)/g, '')
        .replace(/\/ID \[[^\]]*\]/g, '');
    const first = await renderScenes([scene('立面图 剖面')], { format: 'pdf' });
    const other = await renderScenes([scene('平面图 总图 详图 节点')], { format: 'pdf' });
    const again = await renderScenes([scene('立面图 剖面')], { format: 'pdf' });
    expect(pdftotext(other)).toContain('平面图 总图 详图 节点');
    expect(pdftotext(again)).toContain('立面图 剖面');
    expect(undated(again)).toBe(undated(first));
  });

  it('draws colours, lineweights in points, mono and gray modes', async () => {
    const color = contents(await renderScenes([sampleScene()], { format: 'pdf', compress: false })).join('\n');
    expect(color).toContain('1 0 0 RG');
    expect(color).toContain('0 0 1 RG');
    // 0.5 mm = 1.417 pt = 142 hundredths; 0.25 mm = 71.
    expect(color).toMatch(/\n142 w\n/);
    expect(color).toMatch(/\n71 w\n/);
    expect(color).toContain('1 J\n1 j');

    const mono = contents(await renderScenes([sampleScene()], { format: 'pdf', color: 'mono', compress: false })).join('\n');
    const ops = [...mono.matchAll(/([\d.]+) ([\d.]+) ([\d.]+) (RG|rg)\n/g)].map((m) => `${m[1]} ${m[2]} ${m[3]}`);
    expect(ops.length).toBeGreaterThan(0);
    expect(new Set(ops)).toEqual(new Set(['0 0 0']));

    const gray = contents(await renderScenes([sampleScene()], { format: 'pdf', color: 'gray', compress: false })).join('\n');
    expect(gray).toContain('0.298 0.298 0.298 RG');
    expect(gray).not.toContain('1 0 0 RG');

    const off = contents(await renderScenes([sampleScene()], { format: 'pdf', lineweights: false, compress: false })).join('\n');
    expect(off).not.toMatch(/\n142 w\n/);
    expect(off).toMatch(/\n28 w\n/);
  });

  it('puts path coordinates on the page (1/100 pt, y down under the flip) and skips hidden layers', async () => {
    const body = contents(await renderScenes([sampleScene()], { format: 'pdf', paper: 'A3', compress: false })).join('\n');
    const s = 410 / 200,
      k = 7200 / 25.4;
    const top = (297 - 100 * s) / 2;
    // The red line (20, 50) → (180, 50).
    const x0 = Math.round((5 + 20 * s) * k),
      x1 = Math.round((5 + 180 * s) * k),
      y = Math.round((top + 50 * s) * k);
    expect(body).toContain(`${x0} ${y} m\n${x1} ${y} l\nS`);
    // The hidden-layer diagonal from (0, 0) to (200, 100) is not drawn.
    const hx0 = Math.round(5 * k),
      hy0 = Math.round((top + 100 * s) * k);
    expect(body).not.toContain(`${hx0} ${hy0} m\n${Math.round(415 * k)} ${Math.round(top * k)} l`);
  });

  it('clips viewports, skips their frozen layers, paints the black background and compresses by default', async () => {
    const plain = contents(await renderScenes([layoutScene()], { format: 'pdf', background: 'black', compress: false })).join('\n');
    expect(plain).toMatch(/q\n[^]*?h W n\n/);
    expect(plain).toContain('0 0 0 rg\n0 0 ');
    // Foreground lines become white on black; the frozen red line is absent, the red one present.
    expect(plain).toContain('1 1 1 RG');
    const redStrokes = plain.split('1 0 0 RG').length - 1;
    expect(redStrokes).toBe(1);
    const packed = await renderScenes([layoutScene()], { format: 'pdf', background: 'black' });
    expect(latin1(packed)).toContain('/FlateDecode');
    expect(contents(packed).join('\n')).toContain('h W n');
  });

  it('writes gradients as shading patterns and wipeouts in the page colour', async () => {
    const ring = [0, 0, 100, 0, 100, 50, 0, 50];
    const scene = modelScene(
      list(
        [
          {
            kind: 'path',
            mode: 'fill',
            style: 1,
            coords: Float64Array.from(ring),
            starts: Uint32Array.from([0]),
            gradient: { name: 'LINEAR', colors: [0xff0000, 0x0000ff], angle: 0 },
          },
          {
            kind: 'path',
            mode: 'wipeout',
            style: 1,
            coords: Float64Array.from([10, 10, 20, 10, 20, 20, 10, 20]),
            starts: Uint32Array.from([0]),
          },
        ],
        STYLES,
      ),
    );
    const pdf = await renderScenes([scene], { format: 'pdf', compress: false, background: 'black' });
    const body = contents(pdf).join('\n');
    expect(body).toMatch(/\/Pattern cs\s*\/\w+ scn/);
    expect(latin1(pdf)).toMatch(/\/ShadingType 2/);
    // The wipeout: filled black (the page colour) after the gradient.
    expect(body).toMatch(/0 0 0 rg\n(\d+ \d+ [ml]\n)+f\*\n\s*Q\s*$/);
    const mono = contents(await renderScenes([scene], { format: 'pdf', compress: false, color: 'mono' })).join('\n');
    expect(mono).not.toContain('/Pattern');
  });

  it('renders a drawing read from DXF: text comes out and the page is sized to the extents', async () => {
    const dxf = entitiesDxf([
      [0, 'LINE'],
      [8, '0'],
      [62, 1],
      [10, 0],
      [20, 0],
      [30, 0],
      [11, 100],
      [21, 0],
      [31, 0],
      [0, 'LINE'],
      [8, '0'],
      [10, 0],
      [20, 0],
      [30, 0],
      [11, 0],
      [21, 50],
      [31, 0],
      [0, 'TEXT'],
      [8, '0'],
      [10, 10],
      [20, 10],
      [30, 0],
      [40, 5],
      [1, 'DXF TEXT 42'],
    ]);
    const { scenes } = buildScenes(readDxf(dxf).drawing, { layouts: 'model' });
    const pdf = await renderScenes(scenes, { format: 'pdf', paper: 'A4' });
    expect(mediaBoxes(pdf)[0]?.[2]).toBeCloseTo(841.89, 1);
    expect(pdftotext(pdf)).toContain('DXF TEXT 42');
  });

  it('keeps ASCII text in a standard font (nothing embedded) and replaces control characters', async () => {
    const scene = modelScene(list([text(0, 'TAB\there', 0, 0, 5, 0), stroke(0, [0, 0, 50, 0])], STYLES, [LATIN_FONT]));
    const pdf = await renderScenes([scene], { format: 'pdf' });
    expect(latin1(pdf)).toContain('/BaseFont /Helvetica');
    expect(latin1(pdf)).not.toContain('/FontFile');
    expect(pdftotext(pdf)).toMatch(/TAB\s+here/);
  });
});
