/**
 * Golden images: a dozen corpus drawings (MIT/CC0, committed in test-fixtures/, see CREDITS.md)
 * drawn to a 512-px PNG and compared with the stored render in test-fixtures/golden/. The match is
 * on ink, with a tolerance: both images cropped to their ink, scaled to 512 px wide, each side
 * dilated by one pixel before matching the other; F1 >= 0.97 passes. So antialiasing and font
 * hinting changes pass, a lost hatch, a moved text or a dropped entity does not.
 *
 * UPDATE_GOLDEN=1 rewrites the stored images (look at them before committing).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { beforeAll, describe, expect, it } from 'vitest';
import { convertDrawing, defaultFonts } from './convert';
import { compareInk, type RgbaImage } from './ink-compare';
import type { FontProvider } from './text/fonts';

const here = dirname(fileURLToPath(import.meta.url));
const FIXTURES = resolve(here, '../test-fixtures');
const GOLDEN = join(FIXTURES, 'golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const WIDTH = 512;
const MIN_F1 = 0.97;

/** Fixture, what it exercises, and the layout drawn (default: the model). */
const CASES: [string, string, string?][] = [
  ['ezdxf_hatches_1.dxf', 'solid hatches with holes and islands'],
  ['skydxf_hatches.dxf', 'pattern hatches'],
  ['ezdxf_text.dxf', 'TEXT alignments, width factor, oblique'],
  ['ezdxf_mtext_complex_inline_codes.dxf', 'MTEXT inline codes and stacking'],
  ['ezdxf_dimension_in_nested_blocks.dxf', 'dimensions inside nested blocks'],
  ['skydxf_splines.dxf', 'SPLINE control and fit points'],
  ['skydxf_ellipticalarcs.dxf', 'elliptical arcs'],
  ['ezdxf_POLI-ALL210_12.dxf', 'R12 polylines with bulges and widths'],
  ['ezdxf_wipeout_door.dxf', 'WIPEOUT hiding what is beneath'],
  ['ezdxf_multi_insert_with_attribs.dxf', 'MINSERT with attributes'],
  ['ezdxf_transform_hatch_pattern.dxf', 'pattern hatches in scaled, rotated and mirrored blocks'],
  ['gen_zh_r2000_gbk.dxf', 'GBK Chinese text, hatch, dimension'],
  ['ezdxf_VP4.dxf', 'a paper-space layout: four viewports at different scales, clipped', 'Layout1'],
  ['gen_tolerance.dxf', 'feature control frames: gdt symbols, values, two datums, two rows, turned'],
  ['gen_linetype_shapes.dxf', 'fence, track, zigzag, batting and gas linetypes with their shapes and text; a SHAPE'],
  ['gen_table.dxf', 'a table drawn from its cells (明细表)'],
];

let fonts: FontProvider;
beforeAll(async () => {
  fonts = await defaultFonts([]);
  if (UPDATE) mkdirSync(GOLDEN, { recursive: true });
});

async function decode(png: Uint8Array): Promise<RgbaImage> {
  const img = await loadImage(png);
  const canvas = createCanvas(img.width, img.height);
  const g = canvas.getContext('2d');
  g.drawImage(img, 0, 0);
  return { width: img.width, height: img.height, data: g.getImageData(0, 0, img.width, img.height).data };
}

describe('golden images (512 px, ink F1 >= 0.97 with 1-px tolerance)', () => {
  it.each(CASES)(
    '%s: %s',
    async (file, _what, layout) => {
      const result = await convertDrawing(readFileSync(join(FIXTURES, file)), {
        format: 'png',
        width: WIDTH,
        fonts,
        name: file,
        ...(layout ? { layout } : {}),
      });
      const png = result.outputs[0]?.data;
      expect(png).toBeDefined();
      const goldenFile = join(GOLDEN, file.replace(/\.dxf$/i, '.png'));
      if (UPDATE) {
        writeFileSync(goldenFile, png as Uint8Array);
        return;
      }
      expect(existsSync(goldenFile), `${goldenFile} missing: run with UPDATE_GOLDEN=1`).toBe(true);
      const [ours, golden] = await Promise.all([decode(png as Uint8Array), decode(readFileSync(goldenFile))]);
      expect(ours.width).toBe(WIDTH);
      const score = compareInk(ours, golden, { width: WIDTH, tolerance: 1 });
      expect(score, 'no ink').not.toBeNull();
      expect(score?.f1, `precision ${score?.precision.toFixed(3)}, recall ${score?.recall.toFixed(3)}`).toBeGreaterThanOrEqual(MIN_F1);
    },
    30_000,
  );
});
