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
import { xclipDxf } from './display/xclip-fixture';
import { sampleDrawing } from './dwg-writer/test-drawing';

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

describe('R12 MTEXT laid out as drawn', () => {
  it('a wrapped, coloured MTEXT becomes TEXT runs where the original draws its lines', async () => {
    const d = emptyDrawing({
      acadVersion: 'AC1032',
      release: 'R2018',
      encoding: 'utf-8',
      vars: {},
      extMin: [0, 0, 0],
      extMax: [60, 40, 0],
    });
    d.modelSpace = [
      { ...base({ layer: '0' }), type: 'LINE', start: [0, 0, 0], end: [60, 0, 0] },
      {
        ...base(),
        type: 'MTEXT',
        text: 'The quick brown fox jumps over the lazy dog, {\\C1;twice} over\\Pand a second paragraph',
        insertion: [2, 38, 0],
        height: 2.5,
        width: 30,
        attachment: 1,
        drawingDirection: 1,
        rotation: 0,
        style: 'Standard',
        lineSpacingFactor: 1,
        lineSpacingStyle: 1,
      },
    ];
    const { bytes, changes } = writeDxf(d, { version: 'R12', graphics: graphicsLowering(d) });
    expect(changes).toEqual([{ type: 'MTEXT', count: 1, outcome: 'lowered', how: 'text' }]);
    const back = readDxf(bytes).drawing;
    const texts = back.modelSpace.filter((e): e is EntityOf<'TEXT'> => e.type === 'TEXT');
    // Wrapped at 30 units: more lines than the two paragraphs, and the red run keeps its colour.
    expect(new Set(texts.map((t) => t.insertion[1].toFixed(6))).size).toBeGreaterThanOrEqual(4);
    expect(texts.some((t) => t.text.includes('twice') && t.color.aci === 1)).toBe(true);
    expect(texts.every((t) => Math.abs(t.height - 2.5) < 1e-6)).toBe(true);
    const score = compareInk(await png(back), await png(d), { width: 800 });
    expect(score?.f1, `precision ${score?.precision}, recall ${score?.recall}`).toBeGreaterThanOrEqual(0.99);
  });
});

describe('MTEXT columns', () => {
  const d = emptyDrawing({ acadVersion: 'AC1032', release: 'R2018', encoding: 'utf-8', vars: {}, extMin: [0, 0, 0], extMax: [80, 40, 0] });
  d.modelSpace = [
    { ...base({ layer: '0' }), type: 'LINE', start: [0, 0, 0], end: [80, 0, 0] },
    {
      ...base(),
      type: 'MTEXT',
      text: 'Line 1\\PLine 2\\PLine 3\\PLine 4\\PLine 5\\PLine 6',
      insertion: [2, 38, 0],
      height: 2.5,
      width: 60,
      attachment: 1,
      drawingDirection: 5,
      rotation: 0,
      style: 'Standard',
      lineSpacingFactor: 1,
      lineSpacingStyle: 1,
      columns: { type: 2, count: 2, width: 25, gutter: 10, autoHeight: false, heights: [10, 0] },
    },
  ];

  it('2018 keeps them; earlier versions get the lines where the columns put them', async () => {
    const kept = readDxf(writeDxf(d, { version: '2018', graphics: graphicsLowering(d) }).bytes).drawing;
    const mtext = kept.modelSpace.find((e) => e.type === 'MTEXT');
    expect(mtext?.type === 'MTEXT' && mtext.columns).toEqual({
      type: 2,
      count: 2,
      width: 25,
      gutter: 10,
      autoHeight: false,
      heights: [10, 0],
    });
    const { bytes, changes } = writeDxf(d, { version: '2013', graphics: graphicsLowering(d) });
    expect(changes).toEqual([{ type: 'MTEXT', count: 1, outcome: 'lowered', how: 'text' }]);
    const lowered = readDxf(bytes).drawing;
    // The second column starts 35 units to the right (column width 25 and gutter 10).
    const xs = new Set(
      lowered.modelSpace.filter((e) => e.type === 'TEXT').map((e) => (e.type === 'TEXT' ? Math.round(e.insertion[0]) : 0)),
    );
    expect([...xs].sort((a, b) => a - b)).toEqual([2, 37]);
    const score = compareInk(await png(lowered), await png(d), { width: 800 });
    expect(score?.f1, `precision ${score?.precision}, recall ${score?.recall}`).toBeGreaterThanOrEqual(0.99);
  });
});

describe('XCLIP', () => {
  it.each([
    ['a clip', { rotation: 30 }],
    ['an inverted clip', { inverted: true }],
  ])(
    '%s draws the same after DXF 2004, DWG 2000 and DWG 2018',
    async (_what, options) => {
      const src = readDxf(xclipDxf(options)).drawing;
      expect(src.modelSpace.find((e) => e.type === 'INSERT' && e.clip)).toBeDefined();
      const original = await png(src);
      const results: Drawing[] = [
        readDxf(writeDxf(src, { version: '2004' }).bytes).drawing,
        (await readDwg(writeDwg(src, { version: '2000' }).bytes)).drawing,
        (await readDwg(writeDwg(src, { version: '2018' }).bytes)).drawing,
      ];
      for (const back of results) {
        expect(back.modelSpace.find((e) => e.type === 'INSERT' && e.clip)).toBeDefined();
        const score = compareInk(await png(back), original, { width: 800 });
        expect(score?.f1, `precision ${score?.precision}, recall ${score?.recall}`).toBeGreaterThanOrEqual(0.99);
      }
    },
    60_000,
  );
});

describe('MTEXT background mask before the version holds it', () => {
  it('DXF 2004 and DWG 2000 get a solid fill in the mask colour behind the text', async () => {
    const d = emptyDrawing({
      acadVersion: 'AC1032',
      release: 'R2018',
      encoding: 'utf-8',
      vars: {},
      extMin: [0, 0, 0],
      extMax: [60, 30, 0],
    });
    d.modelSpace = [
      { ...base({ layer: '0' }), type: 'LINE', start: [0, 0, 0], end: [60, 30, 0] },
      {
        ...base(),
        type: 'MTEXT',
        text: 'MASKED TEXT',
        insertion: [10, 20, 0],
        height: 3,
        width: 0,
        attachment: 1,
        drawingDirection: 1,
        rotation: 0,
        style: 'Standard',
        lineSpacingFactor: 1,
        lineSpacingStyle: 1,
        background: { flags: 17, color: { aci: 2 }, scale: 1.5 },
      },
    ];
    const original = await png(d);
    const dxf = writeDxf(d, { version: '2004', graphics: graphicsLowering(d) });
    expect(dxf.changes).toEqual([{ type: 'MTEXT', count: 1, outcome: 'lowered', how: 'graphics' }]);
    const dwg = writeDwg(d, { version: '2000', graphics: graphicsLowering(d) });
    for (const back of [readDxf(dxf.bytes).drawing, (await readDwg(dwg.bytes)).drawing]) {
      const types = back.modelSpace.map((e) => e.type);
      // The fill and its frame come before the text, so the text is drawn over them.
      expect(types.indexOf('HATCH')).toBeLessThan(types.indexOf('MTEXT'));
      expect(back.modelSpace.find((e) => e.type === 'HATCH')?.color).toEqual({ aci: 2 });
      const score = compareInk(await png(back), original, { width: 800 });
      expect(score?.f1, `precision ${score?.precision}, recall ${score?.recall}`).toBeGreaterThanOrEqual(0.99);
    }
  }, 60_000);
});

describe('gradient hatch before 2004', () => {
  it('becomes bands of solid fills across its axis, coloured as the gradient is there', async () => {
    const d = emptyDrawing({
      acadVersion: 'AC1032',
      release: 'R2018',
      encoding: 'utf-8',
      vars: {},
      extMin: [0, 0, 0],
      extMax: [40, 20, 0],
    });
    const square = (x0: number, y0: number, x1: number, y1: number) => ({
      flags: 3,
      polyline: {
        vertices: [
          [x0, y0],
          [x1, y0],
          [x1, y1],
          [x0, y1],
        ].map(([x, y]) => ({ x: x as number, y: y as number, bulge: 0 })),
        closed: true,
      },
      edges: [],
    });
    d.modelSpace = [
      // White paper around the fill (the ink comparison takes the commonest colour for the paper).
      { ...base({ layer: '0' }), type: 'LINE', start: [-40, -40, 0], end: [80, 60, 0] },
      {
        ...base({ layer: '0' }),
        type: 'HATCH',
        pattern: 'SOLID',
        solid: true,
        associative: false,
        elevation: 0,
        paths: [square(0, 0, 40, 20)],
        style: 0,
        patternType: 1,
        patternAngle: 0,
        patternScale: 1,
        patternDouble: false,
        patternLines: [],
        gradient: { name: 'LINEAR', colors: [{ aci: 5 }, { aci: 2 }], angle: 0, shift: 0, singleColor: false, tint: 0 },
      },
    ];
    const { bytes, changes } = writeDxf(d, { version: '2000', graphics: graphicsLowering(d) });
    expect(changes.find((c) => c.how === 'solid-fill')).toEqual({ type: 'HATCH', count: 1, outcome: 'lowered', how: 'solid-fill' });
    const back = readDxf(bytes).drawing;
    const fills = back.modelSpace.filter((e) => e.type === 'HATCH');
    expect(fills.length).toBeGreaterThan(10);
    // Blue at the left end, yellow at the right (ACI 5 and 2 are exact).
    const at = (x: number) =>
      fills.find((h) => h.type === 'HATCH' && h.paths.some((p) => p.polyline?.vertices.some((v) => Math.abs(v.x - x) < 1e-9)));
    expect(at(0)?.color.aci).toBe(5);
    expect(at(40)?.color.aci).toBe(2);
    const score = compareInk(await png(back), await png(d), { width: 800 });
    expect(score?.f1, `precision ${score?.precision}, recall ${score?.recall}`).toBeGreaterThanOrEqual(0.97);
  });
});

describe('R12 dimension without its block', () => {
  it('is drawn from its points instead of left out', () => {
    const d = sampleDrawing();
    const missing = d.modelSpace.filter((e) => e.type === 'DIMENSION' && !d.blocks[e.block]);
    expect(missing.length).toBeGreaterThan(0);
    const { changes } = writeDxf(d, { version: 'R12', graphics: graphicsLowering(d) });
    expect(changes.find((c) => c.type === 'DIMENSION' && c.how === 'graphics')?.count).toBe(missing.length);
    expect(changes.find((c) => c.type === 'DIMENSION' && c.how === 'broken-input')).toBeUndefined();
  });
});

describe('R12: construction lines, images and leaders keep their look', () => {
  /** What R12 has no entity for, beside a rectangle that gives the drawing its extents. */
  function r12Objects(): Drawing {
    const d = emptyDrawing({ acadVersion: 'AC1032', release: 'R2018', encoding: 'utf-8', vars: {} });
    d.modelSpace = [
      {
        ...base({ layer: '0' }),
        type: 'LWPOLYLINE',
        closed: true,
        plinegen: false,
        constantWidth: 0,
        elevation: 0,
        vertices: [
          { x: 0, y: 0, startWidth: 0, endWidth: 0, bulge: 0 },
          { x: 100, y: 0, startWidth: 0, endWidth: 0, bulge: 0 },
          { x: 100, y: 60, startWidth: 0, endWidth: 0, bulge: 0 },
          { x: 0, y: 60, startWidth: 0, endWidth: 0, bulge: 0 },
        ],
      },
      { ...base(), type: 'XLINE', base: [50, 30, 0], direction: [0.6, 0.8, 0] },
      { ...base(), type: 'RAY', base: [20, 10, 0], direction: [1, 0, 0] },
      {
        ...base(),
        type: 'IMAGE',
        insertion: [60, 35, 0],
        u: [0.1, 0, 0],
        v: [0, 0.1, 0],
        imageSize: [300, 200],
        fileName: 'site-photo.jpg',
        displayFlags: 7,
        clipping: false,
        clipType: 1,
        clipBoundary: [],
      },
      {
        ...base(),
        type: 'LEADER',
        vertices: [
          [10, 50, 0],
          [20, 40, 0],
          [35, 45, 0],
        ],
        arrowhead: true,
        pathType: 1,
        style: 'Standard',
        hookline: false,
      },
    ];
    return d;
  }

  it('an XLINE and a RAY become LINEs across the drawing, an IMAGE its frame, a spline LEADER its curve and arrowhead', async () => {
    const src = r12Objects();
    const { bytes, changes } = writeDxf(src, { version: 'R12', graphics: graphicsLowering(src) });
    const by = (type: string) => changes.find((c) => c.type === type);
    expect(by('XLINE')).toEqual({ type: 'XLINE', count: 1, outcome: 'lowered', how: 'line' });
    expect(by('RAY')).toEqual({ type: 'RAY', count: 1, outcome: 'lowered', how: 'line' });
    // The picture itself cannot go to R12: dropped, its frame kept.
    expect(by('IMAGE')).toEqual({ type: 'IMAGE', count: 1, outcome: 'dropped', how: 'frame' });
    expect(by('LEADER')).toEqual({ type: 'LEADER', count: 1, outcome: 'lowered', how: 'graphics' });
    const back = readDxf(bytes).drawing;
    const lines = back.modelSpace.filter((e): e is EntityOf<'LINE'> => e.type === 'LINE');
    // The XLINE through (50, 30) along (0.6, 0.8) meets the box's bottom and top edges.
    const xline = lines.find((l) => Math.abs(l.start[0] - 50 + (30 / 0.8) * 0.6) < 1e-6 && l.start[1] === 0);
    expect(xline?.end).toEqual([50 + (30 / 0.8) * 0.6, 60, 0]);
    // The RAY starts at its base and ends at the box's right edge.
    expect(lines.some((l) => l.start[0] === 20 && l.start[1] === 10 && l.end[0] === 100 && l.end[1] === 10)).toBe(true);
    const score = compareInk(await png(back), await png(src), { width: 800 });
    expect(score?.f1, `precision ${score?.precision}, recall ${score?.recall}`).toBeGreaterThanOrEqual(0.99);
  });

  it('without the graphic lowering, an image is left out and said so', () => {
    const { changes } = writeDxf(r12Objects(), { version: 'R12' });
    expect(changes.find((c) => c.type === 'IMAGE')).toEqual({ type: 'IMAGE', count: 1, outcome: 'dropped', how: 'not-in-version' });
    // A construction line needs no drawing to be clipped.
    expect(changes.find((c) => c.type === 'XLINE')?.how).toBe('line');
  });
});
