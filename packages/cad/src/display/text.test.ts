import { describe, expect, it } from 'vitest';
import { aciColor, FOREGROUND } from '../geom/color';
import { defaultFontProvider } from '../text/fonts';
import { decodeTextCodes } from './text';
import { buildScenes } from './builder';
import type { MTextEntity } from '../model';
import { at, buildText, mtext, strokes, text, textDrawing, texts } from './text-test-helpers';

const STYLES = [{ name: 'STANDARD', font: 'arial.ttf', family: 'Arial' }];

/** Text-space width of a text primitive in world units along its baseline. */
function worldWidth(t: ReturnType<typeof texts>[number]): number {
  const [x0, y0] = at(t, 0, 0);
  const [x1, y1] = at(t, t.width, 0);
  return Math.hypot(x1 - x0, y1 - y0);
}

describe('TEXT placement', () => {
  it('left aligned text starts at the insertion point with the cap height as text height', () => {
    const { list } = buildText({ styles: STYLES, entities: text('HELLO', { x: 10, y: 20, height: 2.5 }) });
    const [t] = texts(list);
    expect(t?.text).toBe('HELLO');
    expect(at(t!, 0, 0)).toEqual([10, 20]);
    // Arial is set at the size whose capitals are 2.5 high (cap height 0.716 em).
    expect(t!.size).toBeCloseTo(2.5 / 0.716, 6);
    expect(t!.width).toBeGreaterThan(2.5 * 3);
  });

  it('centre-aligned (72=1) text is centred on the alignment point', () => {
    const { list } = buildText({ styles: STYLES, entities: text('CENTRED', { x: 0, y: 0, height: 2, halign: 1, align: [50, 30] }) });
    const [t] = texts(list);
    const mid = at(t!, t!.width / 2, 0);
    expect(mid[0]).toBeCloseTo(50, 6);
    expect(mid[1]).toBeCloseTo(30, 6);
  });

  it('right-aligned text ends at the alignment point; middle (72=4) centres both ways', () => {
    const r = texts(buildText({ styles: STYLES, entities: text('RIGHT', { height: 2, halign: 2, align: [100, 0] }) }).list)[0]!;
    expect(at(r, r.width, 0)[0]).toBeCloseTo(100, 6);
    const m = texts(buildText({ styles: STYLES, entities: text('MID', { height: 2, halign: 4, align: [10, 10] }) }).list)[0]!;
    const c = at(m, m.width / 2, 0);
    expect(c[0]).toBeCloseTo(10, 6);
    // Middle: the middle of the capitals (baseline 1 below) at the point.
    expect(c[1]).toBeCloseTo(9, 6);
  });

  it('vertical alignment: top puts the capitals under the point, middle centres them', () => {
    const top = texts(buildText({ styles: STYLES, entities: text('TOP', { height: 4, valign: 3, align: [0, 100] }) }).list)[0]!;
    expect(at(top, 0, 0)[1]).toBeCloseTo(96, 6);
    const mid = texts(buildText({ styles: STYLES, entities: text('MID', { height: 4, valign: 2, align: [0, 100] }) }).list)[0]!;
    expect(at(mid, 0, 0)[1]).toBeCloseTo(98, 6);
  });

  it('aligned (72=3) fits the text between the two points and scales its height', () => {
    const { list } = buildText({ styles: STYLES, entities: text('ALIGNED', { x: 0, y: 0, height: 1, halign: 3, align: [30, 40] }) });
    const [t] = texts(list);
    expect(worldWidth(t!)).toBeCloseTo(50, 6);
    const end = at(t!, t!.width, 0);
    expect(end[0]).toBeCloseTo(30, 6);
    expect(end[1]).toBeCloseTo(40, 6);
    // Height scaled with the width (uniform), so the matrix has no stretch.
    const [a, b, c, d] = t!.matrix;
    expect(Math.hypot(a, b)).toBeCloseTo(Math.hypot(c, d), 9);
  });

  it('fit (72=5) keeps the height and stretches the width factor', () => {
    const { list } = buildText({ styles: STYLES, entities: text('FIT', { x: 0, y: 0, height: 1, halign: 5, align: [20, 0] }) });
    const [t] = texts(list);
    expect(at(t!, t!.width, 0)[0]).toBeCloseTo(20, 6);
    expect(t!.size).toBeCloseTo(1 / 0.716, 6);
    expect(t!.matrix[0]).toBeGreaterThan(1);
  });

  it('rotation, width factor and oblique angle are in the matrix', () => {
    const { list } = buildText({
      styles: STYLES,
      entities: text('R', { x: 5, y: 5, height: 1, rotation: 90, widthFactor: 0.5, oblique: 15 }),
    });
    const [a, b, c, d, e, f] = texts(list)[0]!.matrix;
    // x axis: rotated 90°, scaled by the width factor.
    expect(a).toBeCloseTo(0, 9);
    expect(b).toBeCloseTo(0.5, 9);
    // y axis: rotated 90° and slanted by 15° (leans towards the text direction).
    expect(c).toBeCloseTo(-1, 9);
    expect(d).toBeCloseTo(Math.tan((15 * Math.PI) / 180), 9);
    expect([e, f]).toEqual([5, 5]);
  });

  it('backwards and upside-down generation flags mirror the text', () => {
    const back = texts(buildText({ styles: STYLES, entities: text('B', { height: 1, generation: 2 }) }).list)[0]!;
    expect(back.matrix[0]).toBeLessThan(0);
    expect(back.matrix[3]).toBeGreaterThan(0);
    const up = texts(buildText({ styles: STYLES, entities: text('U', { height: 1, generation: 4 }) }).list)[0]!;
    expect(up.matrix[0]).toBeGreaterThan(0);
    expect(up.matrix[3]).toBeLessThan(0);
  });

  it('an extrusion of -Z places the text in its OCS (x mirrored)', () => {
    const { list } = buildText({
      styles: STYLES,
      entities: text('OCS', {
        x: 10,
        y: 2,
        height: 1,
        extra: [
          [210, 0],
          [220, 0],
          [230, -1],
        ],
      }),
    });
    const t = texts(list)[0]!;
    expect(at(t, 0, 0)).toEqual([-10, 2]);
    expect(t.matrix[0]).toBeLessThan(0);
  });

  it('the style fixed height and font apply; the entity width factor wins', () => {
    const { list } = buildText({
      styles: [{ name: 'NARROW', font: 'arial.ttf', fixedHeight: 3, widthFactor: 0.7 }],
      entities: text('X', { height: 0, style: 'narrow', widthFactor: 0.8 }),
    });
    const t = texts(list)[0]!;
    expect(t.size).toBeCloseTo(3 / 0.716, 6);
    expect(t.matrix[0]).toBeCloseTo(0.8, 9);
  });
});

describe('TEXT control codes', () => {
  it('%%c, %%d, %%p, %%%, %%nnn become ⌀ ° ± % and the character', () => {
    expect(
      decodeTextCodes('%%c50 45%%d %%p0.1 100%%% %%065')
        .map((s) => s.text)
        .join(''),
    ).toBe('\u230050 45\u00b0 \u00b10.1 100% A');
    const { list } = buildText({ styles: STYLES, entities: text('%%C20 %%D', { height: 1 }) });
    expect(
      texts(list)
        .map((t) => t.text)
        .join(''),
    ).toBe('\u230020 \u00b0');
  });

  it('%%u toggles an underline drawn as a stroke under the underlined part only', () => {
    const { list } = buildText({ styles: STYLES, entities: text('%%uUNDER%%u rest', { x: 0, y: 0, height: 2 }) });
    const ts = texts(list);
    expect(ts.map((t) => t.text).join('')).toBe('UNDER rest');
    const lines = strokes(list);
    expect(lines).toHaveLength(1);
    const [p, q] = lines[0]!.points;
    expect(p![1]).toBeLessThan(0);
    expect(p![1]).toBeCloseTo(q![1], 9);
    expect(p![0]).toBeCloseTo(0, 9);
    // It ends where "UNDER" ends, before " rest".
    const under = ts.find((t) => t.text === 'UNDER');
    expect(q![0]).toBeCloseTo(at(under!, under!.width, 0)[0], 6);
  });

  it('%%o draws an overline above the capitals', () => {
    const { list } = buildText({ styles: STYLES, entities: text('%%oOVER', { height: 2 }) });
    const [l] = strokes(list);
    expect(l!.points[0]![1]).toBeGreaterThan(2);
  });

  it('ATTDEF outside a block shows its tag, ATTRIB its value', () => {
    const attdef: [number, string | number][] = [
      [0, 'ATTDEF'],
      [8, '0'],
      [10, 0],
      [20, 0],
      [30, 0],
      [40, 1],
      [1, 'default'],
      [3, 'Prompt'],
      [2, 'TAG1'],
      [70, 0],
      [7, 'STANDARD'],
    ];
    const { list } = buildText({ styles: STYLES, entities: attdef });
    expect(texts(list).map((t) => t.text)).toEqual(['TAG1']);
  });
});

describe('MTEXT', () => {
  it('\\P starts new paragraphs at the 5/3 line pitch', () => {
    const { list } = buildText({ styles: STYLES, entities: mtext('One\\PTwo\\PThree', { x: 0, y: 10, height: 3 }) });
    const ts = texts(list);
    expect(ts.map((t) => t.text)).toEqual(['One', 'Two', 'Three']);
    const ys = ts.map((t) => at(t, 0, 0)[1]);
    // Top attachment: first baseline one text height below the insertion point.
    expect(ys[0]).toBeCloseTo(7, 9);
    expect(ys[0]! - ys[1]!).toBeCloseTo(5, 9);
    expect(ys[1]! - ys[2]!).toBeCloseTo(5, 9);
    for (const t of ts) expect(at(t, 0, 0)[0]).toBeCloseTo(0, 9);
  });

  it('the line spacing factor scales the pitch', () => {
    const { list } = buildText({ styles: STYLES, entities: mtext('A\\PB', { height: 3, extra: [[44, 2]] }) });
    const ys = texts(list).map((t) => at(t, 0, 0)[1]);
    expect(ys[0]! - ys[1]!).toBeCloseTo(10, 9);
  });

  it('wraps words within the reference width', () => {
    const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu';
    const { list } = buildText({ styles: STYLES, entities: mtext(words, { height: 1, width: 12 }) });
    const ts = texts(list);
    const lines = new Map<number, string[]>();
    for (const t of ts) {
      const y = Math.round(at(t, 0, 0)[1] * 1000);
      lines.set(y, [...(lines.get(y) ?? []), t.text]);
      // No word goes past the width (a small tolerance for font differences).
      expect(at(t, t.width, 0)[0]).toBeLessThanOrEqual(12 * 1.02);
    }
    expect(lines.size).toBeGreaterThanOrEqual(4);
    expect([...lines.values()].flat().join(' ').replace(/\s+/g, ' ').trim()).toBe(words);
  });

  it('wraps Chinese between any two characters', () => {
    const { list } = buildText({ styles: STYLES, entities: mtext('混凝土强度等级为C30的钢筋混凝土结构设计说明', { height: 1, width: 6 }) });
    const ys = new Set(texts(list).map((t) => Math.round(at(t, 0, 0)[1] * 1000)));
    expect(ys.size).toBeGreaterThanOrEqual(3);
    for (const t of texts(list)) expect(at(t, t.width, 0)[0]).toBeLessThanOrEqual(6 * 1.02);
  });

  it('attachment 5 centres the text box on the insertion point', () => {
    const { list } = buildText({ styles: STYLES, entities: mtext('Line one\\PLine two', { x: 100, y: 50, height: 2, attachment: 5 }) });
    const ts = texts(list);
    for (const t of ts) expect((at(t, 0, 0)[0] + at(t, t.width, 0)[0]) / 2).toBeCloseTo(100, 6);
    const top = at(ts[0]!, 0, 2)[1];
    const bottom = at(ts[1]!, 0, 0)[1];
    expect((top + bottom) / 2).toBeCloseTo(50, 6);
  });

  it('attachment 9 puts the last baseline and the right edge at the insertion point', () => {
    const { list } = buildText({ styles: STYLES, entities: mtext('Wide first line\\Pend', { x: 0, y: 0, height: 1, attachment: 9 }) });
    const ts = texts(list);
    expect(at(ts[1]!, 0, 0)[1]).toBeCloseTo(0, 9);
    for (const t of ts) expect(at(t, t.width, 0)[0]).toBeCloseTo(0, 6);
  });

  it('\\C and \\c change the colour of a run; { } restores it', () => {
    const { list } = buildText({ styles: STYLES, entities: mtext('plain {\\C1;red} \\c16711680;blue', { height: 1 }) });
    const colour = (s: string): number | undefined => {
      const t = texts(list).find((x) => x.text.trim() === s);
      return t ? list.styles[t.style]?.color : undefined;
    };
    expect(colour('plain')).toBe(FOREGROUND);
    expect(colour('red')).toBe(aciColor(1));
    // \c is BGR: 16711680 = 0xFF0000 → blue.
    expect(colour('blue')).toBe(0x0000ff);
  });

  it('\\H changes the height, absolute or relative (x)', () => {
    const { list } = buildText({ styles: STYLES, entities: mtext('a{\\H2x;b}{\\H0.5;c}', { height: 1 }) });
    const size = (s: string): number => texts(list).find((t) => t.text === s)!.size;
    expect(size('b') / size('a')).toBeCloseTo(2, 9);
    expect(size('c') / size('a')).toBeCloseTo(0.5, 9);
  });

  it('stacked fractions: numerator above a bar, denominator below, both smaller', () => {
    const { list } = buildText({ styles: STYLES, entities: mtext('x \\S1/2;', { height: 1 }) });
    const ts = texts(list);
    const num = ts.find((t) => t.text === '1')!;
    const den = ts.find((t) => t.text === '2')!;
    const x = ts.find((t) => t.text.trim() === 'x')!;
    const base = at(x, 0, 0)[1];
    expect(num.size).toBeCloseTo(x.size * 0.7, 6);
    expect(at(num, 0, 0)[1]).toBeGreaterThan(base + 0.5);
    expect(at(den, 0, 0)[1]).toBeLessThan(base + 0.5);
    // The bar at half the text height, over the width of the fraction, after the x.
    const bar = strokes(list)[0]!;
    expect(bar.points[0]![1]).toBeCloseTo(base + 0.5, 6);
    expect(bar.points[0]![0]).toBeGreaterThan(at(x, x.width, 0)[0] - 1e-9);
    expect(at(den, 0, 0)[0]).toBeGreaterThanOrEqual(bar.points[0]![0]);
  });

  it('underline, overline and strike-through are strokes over the formatted words', () => {
    const { list } = buildText({ styles: STYLES, entities: mtext('\\Lunder\\l \\Oover\\o \\Kstrike\\k', { height: 1 }) });
    expect(strokes(list)).toHaveLength(3);
  });

  it('\\~ is a space that does not break; escapes \\\\ \\{ \\} are literal', () => {
    const { list } = buildText({ styles: STYLES, entities: mtext('a\\~b \\\\ \\{x\\}', { height: 1 }) });
    expect(
      texts(list)
        .map((t) => t.text)
        .join(''),
    ).toBe('a\u00a0b \\ {x}');
  });

  it('a rotated MTEXT runs along its direction vector', () => {
    const { list } = buildText({
      styles: STYLES,
      entities: mtext('up', {
        x: 1,
        y: 1,
        height: 1,
        extra: [
          [11, 0],
          [21, 1],
          [31, 0],
        ],
      }),
    });
    const t = texts(list)[0]!;
    // Turned 90°: the baseline (one height below the top) is one unit right of the insertion point.
    const start = at(t, 0, 0);
    const end = at(t, t.width, 0);
    expect(start[0]).toBeCloseTo(2, 9);
    expect(end[0]).toBeCloseTo(2, 9);
    expect(end[1]).toBeGreaterThan(start[1] + 1);
  });

  it('background mask: a fill behind the text, or a wipeout with the background colour', () => {
    const filled = buildText({
      styles: STYLES,
      entities: mtext('mask', {
        height: 1,
        extra: [
          [90, 1],
          [63, 3],
          [45, 1.5],
        ],
      }),
    }).list;
    const fill = filled.primitives.find((p) => p.kind === 'path' && p.mode === 'fill');
    expect(fill).toBeDefined();
    expect(filled.styles[fill!.style]?.color).toBe(aciColor(3));
    expect(filled.primitives.indexOf(fill!)).toBeLessThan(filled.primitives.findIndex((p) => p.kind === 'text'));
    const wiped = buildText({
      styles: STYLES,
      entities: mtext('mask', {
        height: 1,
        extra: [
          [90, 3],
          [45, 1.5],
        ],
      }),
    }).list;
    expect(wiped.primitives.some((p) => p.kind === 'path' && p.mode === 'wipeout')).toBe(true);
  });

  it('columns: lines flow into the next column at the column height', () => {
    // Dynamic columns with manual heights: 2 columns 10 wide, gutter 2, each 5 high (3 lines).
    const drawing = textDrawing({ styles: STYLES, entities: mtext('L1\\PL2\\PL3\\PL4\\PL5\\PL6', { height: 1, width: 10 }) });
    const e = drawing.modelSpace[0] as MTextEntity;
    e.columns = { type: 2, count: 2, width: 10, gutter: 2, autoHeight: false, heights: [5, 5] };
    const list = buildScenes(drawing, { layouts: 'model' }).scenes[0]!.list;
    const xs = texts(list).map((t) => at(t, 0, 0)[0]);
    expect(xs.filter((x) => Math.abs(x) < 1e-9).length).toBe(3);
    expect(xs.filter((x) => Math.abs(x - 12) < 1e-9).length).toBe(3);
  });

  it('\\N breaks to the next column', () => {
    const drawing = textDrawing({ styles: STYLES, entities: mtext('A\\NB', { height: 1, width: 10 }) });
    (drawing.modelSpace[0] as MTextEntity).columns = { type: 1, count: 2, width: 10, gutter: 1, autoHeight: false, heights: [] };
    const [a, b] = texts(buildScenes(drawing, { layouts: 'model' }).scenes[0]!.list);
    expect(at(a!, 0, 0)[1]).toBeCloseTo(at(b!, 0, 0)[1], 9);
    expect(at(b!, 0, 0)[0]).toBeCloseTo(11, 9);
  });

  it('paragraph alignment \\pqc centres lines in the reference width', () => {
    const { list } = buildText({ styles: STYLES, entities: mtext('\\pxqc;mid', { height: 1, width: 20 }) });
    const t = texts(list)[0]!;
    expect((at(t, 0, 0)[0] + at(t, t.width, 0)[0]) / 2).toBeCloseTo(10, 6);
  });

  it('a -Z extrusion MTEXT keeps its WCS insertion point', () => {
    const { list } = buildText({
      styles: STYLES,
      entities: mtext('mirror', {
        x: 10,
        y: 0,
        height: 1,
        extra: [
          [210, 0],
          [220, 0],
          [230, -1],
        ],
      }),
    });
    const t = texts(list)[0]!;
    expect(at(t, 0, 1)[0]).toBeCloseTo(10, 9);
    expect(at(t, 0, 1)[1]).toBeCloseTo(0, 9);
  });
});

describe('fonts in the display list', () => {
  it('Chinese text comes out in the CJK font, Latin in the substitute, each as its own run', () => {
    const { list, missing, substituted } = buildText(
      { styles: [{ name: 'STANDARD', font: 'txt', bigFont: 'gbcbig.shx' }], entities: text('AB中文', { height: 1 }) },
      defaultFontProvider(),
    );
    const ts = texts(list);
    expect(ts.map((t) => t.text)).toEqual(['AB', '中文']);
    expect(list.fonts[ts[1]!.font]?.family).toBe('Noto Sans SC');
    expect(list.fonts[ts[0]!.font]?.family).not.toMatch(/CJK/);
    // The CJK run continues where the Latin one ends.
    expect(at(ts[1]!, 0, 0)[0]).toBeCloseTo(at(ts[0]!, ts[0]!.width, 0)[0], 9);
    // Both stand-ins are the usual ones: substituted, but no notice.
    expect(substituted).toEqual(['txt.shx', 'gbcbig.shx']);
    expect(missing).toEqual([]);
  });

  it('a big font not found keeps its square cells: Chinese advances height x width factor, the em box on the cell', () => {
    // hztxt.shx / gbcbig.shx characters are as wide as the text is high (at width factor 1).
    const { list } = buildText(
      {
        styles: [{ name: 'STANDARD', font: 'txt', bigFont: 'hztxt.shx' }],
        entities: text('设计说明', { height: 3.5, widthFactor: 0.7, x: 10, y: 20 }),
      },
      defaultFontProvider(),
    );
    const [t] = texts(list);
    expect(t?.text).toBe('设计说明');
    // Four cells of 3.5 x 0.7 = 2.45.
    expect(at(t!, t!.width, 0)[0] - at(t!, 0, 0)[0]).toBeCloseTo(4 * 2.45, 6);
    // The em is the text height, its box (0.12 em under the baseline) raised onto the cell.
    expect(t?.size).toBeCloseTo(3.5, 9);
    expect(at(t!, 0, 0)).toEqual([expect.closeTo(10, 9), expect.closeTo(20 + 0.12 * 3.5, 9)]);
  });
});
