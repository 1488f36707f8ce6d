/**
 * Text on real drawings: the committed fixtures always, the corpus text files when
 * /work/shared/corpus is present.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildScenes } from './builder';
import type { DisplayList, TextPrimitive } from './types';
import { readDxf } from '../dxf/reader';
import { hasCjk } from '../text/fonts';
import { nodeFontProvider } from '../text/node-fonts';
import { at, texts } from './text-test-helpers';

const FIXTURES = join(__dirname, '../../test-fixtures');
const CORPUS = '/work/shared/corpus/dxf';

function model(path: string): { list: DisplayList; missing: string[]; substituted: string[] } {
  const { drawing } = readDxf(readFileSync(path));
  const r = buildScenes(drawing, { layouts: 'model', fonts: nodeFontProvider() });
  return { list: r.scenes[0]!.list, missing: r.missingFonts, substituted: r.substitutedFonts.map((s) => s.requested) };
}

/** Every text primitive with Chinese characters is set in a font that has them. */
function cjkInCjkFonts(list: DisplayList): TextPrimitive[] {
  const cjk = texts(list).filter((t) => hasCjk(t.text));
  for (const t of cjk)
    expect(list.fonts[t.font]?.family).toMatch(/CJK|Noto (Sans|Serif) SC|Hei|Song|Ming|Kai|Fang|Gothic|WenQuanYi|Droid/i);
  return cjk;
}

describe('text of the fixtures', () => {
  for (const name of ['gen_zh_r2000_gbk.dxf', 'gen_zh_r2018_utf8.dxf']) {
    it(`${name}: Chinese TEXT, MTEXT and ATTRIB come out as Chinese in a CJK font`, () => {
      const { list, missing, substituted } = model(join(FIXTURES, name));
      const cjk = cjkInCjkFonts(list);
      const all = texts(list)
        .map((t) => t.text)
        .join('|');
      for (const s of ['客厅', '卧室（主）', '设计说明：', '混凝土强度等级', '红色文字']) expect(all).toContain(s);
      expect(cjk.length).toBeGreaterThanOrEqual(6);
      // The MTEXT lines are 5/3 of 250 apart, left aligned at x = 500.
      const lines = texts(list).filter((t) => /^(设计说明|1\.|2\.)/.test(t.text));
      expect(lines).toHaveLength(3);
      for (const t of lines) expect(at(t, 0, 0)[0]).toBeCloseTo(500, 6);
      expect(at(lines[0]!, 0, 0)[1] - at(lines[1]!, 0, 0)[1]).toBeCloseTo(250 * (5 / 3), 6);
      // '红色文字' in red (\C1).
      const red = texts(list).find((t) => t.text === '红色文字');
      expect(list.styles[red!.style]?.color).toBe(0xff0000);
      // The big font is substituted by the CJK face as usual: no notice for it.
      expect(substituted).toContain('gbcbig.shx');
      expect(missing).not.toContain('gbcbig.shx');
    });
  }

  it('ezdxf_mtext_complex_inline_codes.dxf: headline red, mirrored copies mirrored, bullets tabbed', () => {
    const { list } = model(join(FIXTURES, 'ezdxf_mtext_complex_inline_codes.dxf'));
    const ts = texts(list);
    const heads = ts.filter((t) => t.text === 'HEADLINE');
    expect(heads).toHaveLength(8);
    for (const h of heads) expect(list.styles[h.style]?.color).toBe(0xff0000);
    const det = (t: TextPrimitive): number => t.matrix[0] * t.matrix[3] - t.matrix[1] * t.matrix[2];
    expect(heads.filter((h) => det(h) < 0)).toHaveLength(4);
    // "first item" after a bullet and a tab: 4 text heights from the left indent.
    const first = ts.find((t) => t.text === 'first item' && det(t) > 0 && Math.abs(t.matrix[1]) < 1e-9 && t.matrix[0] > 0);
    const bullet = ts.find((t) => t.text === '•' && first && Math.abs(at(t, 0, 0)[1] - at(first, 0, 0)[1]) < 1e-6);
    expect(first && bullet).toBeTruthy();
    expect(at(first!, 0, 0)[0] - at(bullet!, 0, 0)[0]).toBeGreaterThan(2.5 * 2);
  });

  it('ezdxf_text.dxf: alignments, ATTDEF tags and ATTRIB values are drawn', () => {
    const { list } = model(join(FIXTURES, 'ezdxf_text.dxf'));
    const all = new Set(texts(list).map((t) => t.text));
    for (const s of ['TAG-NORMAL', 'VALUE-normal', 'TAG-BACKWARDS', 'VALUE-rotated']) expect(all.has(s)).toBe(true);
  });
});

const CORPUS_FILES = [
  'ezdxf_text.dxf',
  'ezdxf_mtext_complex_inline_codes.dxf',
  'ezdxf_columns_R2018.dxf',
  'dxfparser_mtext-test.dxf',
  'ezdxf_text_fonts.dxf',
  'gen_zh_r2000_gbk.dxf',
  'gen_zh_r2018_utf8.dxf',
  'mlcad_block-color.dxf',
  'ldwg_2013_gh109_1_zh_tarch.dxf',
  'skydxf_floorplan.dxf',
];

// The corpus drawings are not all committable (licences): this part runs where the corpus is (as in CI).
if (existsSync(CORPUS))
  describe('text of the corpus', () => {
    it('every text file draws its text, Chinese in CJK fonts, %%u as underlines', () => {
      for (const name of CORPUS_FILES) {
        const { list } = model(join(CORPUS, name));
        const ts = texts(list);
        expect(ts.length, name).toBeGreaterThan(0);
        for (const t of ts) {
          expect(t.text, name).not.toMatch(/%%[uocdp]|\\[PLlOoKkCcHfFSWQTAp][^\s]*;?/);
          expect(Number.isFinite(t.size) && t.size > 0, name).toBe(true);
        }
        cjkInCjkFonts(list);
      }
    });

    it('mlcad_block-color.dxf: each label keeps "图层：TestLayerN" on one line', () => {
      const { list } = model(join(CORPUS, 'mlcad_block-color.dxf'));
      const ts = texts(list);
      for (const n of [1, 2, 3]) {
        const layer = ts.find((t) => t.text === `TestLayer${n}`)!;
        const label = ts.find(
          (t) =>
            t.text.startsWith('图层') &&
            Math.abs(at(t, 0, 0)[1] - at(layer, 0, 0)[1]) < 1e-6 &&
            Math.abs(at(t, t.width, 0)[0] - at(layer, 0, 0)[0]) < 1e-6,
        );
        expect(label, `TestLayer${n}`).toBeDefined();
      }
    });
  });
