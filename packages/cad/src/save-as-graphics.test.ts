import { describe, expect, it } from 'vitest';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { buildScenes } from './display';
import { emptyDrawing } from './drawing';
import { readDwg } from './dwg-client';
import { writeDwg } from './dwg-writer';
import { writeDxf, type DxfVersion } from './dxf-writer';
import { readDxf } from './dxf';
import { compareInk, type RgbaImage } from './ink-compare';
import type { Drawing, EntityBase, EntityOf } from './model';
import { renderScenes } from './render';
import { graphicsLowering } from './save-as-graphics';
import { defaultFontProvider } from './text/fonts';

const base = (over: Partial<EntityBase> = {}): EntityBase => ({
  layer: 'NOTES',
  color: { aci: 256 },
  linetype: 'BYLAYER',
  ltscale: 1,
  lineweight: -1,
  visible: true,
  extrusion: [0, 0, 1],
  paperSpace: false,
  ...over,
});

/** Three MULTILEADERs as AutoCAD saves them: framed text, rotated framed text, plain text on a landing; a LINE for scale. */
function leaders(): Drawing {
  const d = emptyDrawing({ acadVersion: 'AC1032', release: 'R2018', encoding: 'utf-8', vars: {}, extMin: [0, 0, 0], extMax: [120, 60, 0] });
  d.layers.NOTES = {
    name: 'NOTES',
    color: { aci: 5 },
    linetype: 'Continuous',
    lineweight: -3,
    on: true,
    frozen: false,
    locked: false,
    plot: true,
  };
  const ml = (over: Partial<EntityOf<'MULTILEADER'>>): EntityOf<'MULTILEADER'> => ({
    ...base(),
    type: 'MULTILEADER',
    leaders: [],
    contentType: 2,
    hasDogleg: true,
    leaderType: 1,
    textHeight: 2.5,
    arrowSize: 2.5,
    landingGap: 1,
    ...over,
  });
  d.modelSpace = [
    { ...base({ layer: '0' }), type: 'LINE', start: [0, 0, 0], end: [120, 0, 0] },
    ml({
      leaders: [{ lastPoint: [20, 30, 0], doglegVector: [1, 0, 0], doglegLength: 4, lines: [{ vertices: [[5, 10, 0]] }] }],
      text: 'FRAMED NOTE',
      textPosition: [25, 31.25, 0],
      textFrame: true,
      contentBase: [24, 30, 0],
    }),
    ml({
      leaders: [{ lastPoint: [70, 30, 0], doglegVector: [0.8, 0.6, 0], doglegLength: 4, lines: [{ vertices: [[55, 10, 0]] }] }],
      text: 'ROTATED\\PTWO LINES',
      textPosition: [75, 36, 0],
      textDirection: [0.8, 0.6, 0],
      textFrame: true,
    }),
    ml({
      leaders: [{ lastPoint: [100, 45, 0], doglegVector: [1, 0, 0], doglegLength: 4, lines: [{ vertices: [[90, 20, 0]] }] }],
      text: '注释 plain',
      textPosition: [105, 46.25, 0],
    }),
  ];
  return d;
}

async function png(d: Drawing): Promise<RgbaImage> {
  const scenes = buildScenes(d, { layouts: 'model', fonts: defaultFontProvider() }).scenes;
  const bytes = await renderScenes(scenes.slice(0, 1), { format: 'png', width: 800 });
  const img = await loadImage(bytes);
  const canvas = createCanvas(img.width, img.height);
  const g = canvas.getContext('2d');
  g.drawImage(img, 0, 0);
  return { width: img.width, height: img.height, data: g.getImageData(0, 0, img.width, img.height).data };
}

describe('MULTILEADER lowered to its graphics', () => {
  const src = leaders();

  it.each(['R12', '2000', '2004'] as DxfVersion[])(
    'DXF %s looks as the original does: frames, arrowheads, landings and text',
    async (version) => {
      const { bytes, changes } = writeDxf(src, { version, graphics: graphicsLowering(src) });
      expect(changes).toEqual([{ type: 'MULTILEADER', count: 3, outcome: 'lowered', how: 'graphics' }]);
      const back = readDxf(bytes).drawing;
      const score = compareInk(await png(back), await png(src), { width: 800 });
      expect(score?.f1, `precision ${score?.precision}, recall ${score?.recall}`).toBeGreaterThanOrEqual(0.99);
      if (version !== 'R12') {
        // The two frames are closed polylines; the texts stay MTEXT; the arrowheads solid fills.
        const closed = back.modelSpace.filter((e) => e.type === 'LWPOLYLINE' && e.closed);
        expect(closed).toHaveLength(2);
        expect(back.modelSpace.filter((e) => e.type === 'MTEXT').map((e) => (e as EntityOf<'MTEXT'>).text)).toEqual([
          'FRAMED NOTE',
          'ROTATED\\PTWO LINES',
          '注释 plain',
        ]);
        expect(back.modelSpace.filter((e) => e.type === 'HATCH' && e.solid)).toHaveLength(3);
        expect(back.modelSpace.filter((e) => e.type !== 'LINE').every((e) => e.layer === 'NOTES')).toBe(true);
      }
    },
  );

  it('DWG 2004 read back by LibreDWG looks the same', async () => {
    const { bytes, notes } = writeDwg(src, { version: '2004', graphics: graphicsLowering(src) });
    expect(notes).toEqual(['MULTILEADER: 3 drawn as its leader lines, arrowheads, landing, frame and content']);
    const back = (await readDwg(bytes)).drawing;
    const score = compareInk(await png(back), await png(src), { width: 800 });
    expect(score?.f1, `precision ${score?.precision}, recall ${score?.recall}`).toBeGreaterThanOrEqual(0.99);
  }, 60_000);
});
