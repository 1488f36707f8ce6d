/** Back ends on real drawings: committed MIT/CC0 fixtures, and the GPL TArch drawing from the corpus where it exists. */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildScenes } from '../display/builder';
import { readDxf } from '../dxf/index';
import { renderScenes } from './index';
import { decode } from './test-scenes';

const FIXTURES = fileURLToPath(new URL('../../test-fixtures/', import.meta.url));
const CORPUS = '/work/shared/corpus/dxf';
const dir = mkdtempSync(join(tmpdir(), 'xcad-corpus-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function scenes(file: string): ReturnType<typeof buildScenes>['scenes'] {
  const path = existsSync(join(FIXTURES, file)) ? join(FIXTURES, file) : join(CORPUS, file);
  return buildScenes(readDxf(readFileSync(path)).drawing).scenes;
}

const chinese: [string, string[]][] = [
  ['gen_zh_r2000_gbk.dxf', ['卧室（主）', '客厅 Living room']],
  ['gen_zh_r2018_utf8.dxf', ['卧室（主）']],
  ['mlcad_block-color.dxf', ['图层：TestLayer1', '颜色：黄色']],
];
// A GPL-3.0 drawing: read from the corpus, never committed.
if (existsSync(join(CORPUS, 'ldwg_2013_gh109_1_zh_tarch.dxf')))
  chinese.push(['ldwg_2013_gh109_1_zh_tarch.dxf', ['房间', '天正单行文字输入']]);

function pdftotext(pdf: Uint8Array): string {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('/usr/bin/pdftotext', [file, '-'], { encoding: 'utf8' });
}

describe('real drawings', () => {
  it.each(chinese)('%s: Chinese comes out of the PDF as text and the PNG has ink', async (file, expected) => {
    const all = scenes(file);
    const text = pdftotext(await renderScenes(all, { format: 'pdf' }));
    for (const s of expected) expect(text).toContain(s);
    const model = all[0];
    expect(model?.isModel).toBe(true);
    const img = await decode(await renderScenes([model as NonNullable<typeof model>], { format: 'png', width: 400 }));
    expect(img.width).toBe(400);
    let ink = 0;
    for (let i = 0; i < img.data.length; i += 4)
      if ((img.data[i] as number) + (img.data[i + 1] as number) + (img.data[i + 2] as number) < 600) ink++;
    expect(ink).toBeGreaterThan(200);
  });

  it('puts paper space drawn in inches on its sheet (skydxf Test Sheet, ANSI A landscape)', async () => {
    const layout = scenes('skydxf_testModelPaperSpace.dxf').find((s) => s.name === 'Test Sheet');
    expect(layout).toBeDefined();
    const img = await decode(await renderScenes([layout as NonNullable<typeof layout>], { format: 'png', dpi: 50 }));
    // 11 × 8.5 in at 50 dpi.
    expect([img.width, img.height]).toEqual([550, 425]);
    // The ink spreads over most of the sheet, not a corner.
    let minX = Infinity,
      maxX = -Infinity;
    for (let y = 0; y < img.height; y++)
      for (let x = 0; x < img.width; x++) {
        const p = img.at(x, y);
        if (p[0] + p[1] + p[2] < 600) {
          minX = Math.min(minX, x);
          maxX = Math.max(maxX, x);
        }
      }
    expect(maxX - minX).toBeGreaterThan(200);
  });
});
