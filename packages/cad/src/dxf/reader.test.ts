import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CadReadError } from '../errors';
import type { Entity, EntityOf } from '../model';
import { detectDxf, readDxf } from './reader';
import { dxfText, entitiesDxf } from './test-helpers';

const fixture = (name: string): Uint8Array => readFileSync(fileURLToPath(new URL(`../../test-fixtures/${name}`, import.meta.url)));
const concat = (...parts: (Uint8Array | string)[]): Uint8Array => {
  const arrays = parts.map((p) => (typeof p === 'string' ? new TextEncoder().encode(p) : p));
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let o = 0;
  for (const a of arrays) {
    out.set(a, o);
    o += a.length;
  }
  return out;
};
const hex = (h: string): Uint8Array => new Uint8Array(h.match(/../g)?.map((x) => parseInt(x, 16)) ?? []);
type Of<T extends Entity['type']> = EntityOf<T>;

describe('code pages', () => {
  it('decodes an R2000 file in ANSI_936 (GBK) once $DWGCODEPAGE is known', () => {
    // 中文 = D6D0 CEC4, 图层 = CDBC B2E3 in GBK.
    const bytes = concat(
      dxfText([
        [0, 'SECTION'],
        [2, 'HEADER'],
        [9, '$ACADVER'],
        [1, 'AC1015'],
        [9, '$DWGCODEPAGE'],
        [3, 'ANSI_936'],
        [0, 'ENDSEC'],
      ]),
      dxfText([
        [0, 'SECTION'],
        [2, 'TABLES'],
        [0, 'TABLE'],
        [2, 'LAYER'],
        [0, 'LAYER'],
        [2, ''],
      ]).slice(0, -1),
      hex('cdbcb2e3'),
      '\n',
      dxfText([
        [70, 0],
        [62, -3],
        [0, 'ENDTAB'],
        [0, 'ENDSEC'],
        [0, 'SECTION'],
        [2, 'ENTITIES'],
        [0, 'TEXT'],
        [8, ''],
      ]).slice(0, -1),
      hex('cdbcb2e3'),
      '\n1\n',
      hex('d6d0cec4'),
      ' \\U+4E2D\n',
      dxfText([
        [0, 'ENDSEC'],
        [0, 'EOF'],
      ]),
    );
    const { drawing } = readDxf(bytes);
    expect(drawing.header.codePage).toBe('ANSI_936');
    expect(drawing.header.encoding).toBe('gbk');
    expect(drawing.header.release).toBe('R2000');
    expect(Object.keys(drawing.layers)).toEqual(['图层']);
    expect(drawing.layers['图层']?.on).toBe(false);
    expect(drawing.layers['图层']?.color).toEqual({ aci: 3 });
    const t = drawing.modelSpace[0] as Of<'TEXT'>;
    expect(t.layer).toBe('图层');
    expect(t.text).toBe('中文 中');
  });

  it('decodes \\M+n multibyte escapes and \\U+ escapes in any version', () => {
    const { drawing } = readDxf(
      entitiesDxf(
        [
          [0, 'TEXT'],
          [1, 'A\\M+5D6D0\\M+193FA\\M+3C7D1\\U+00E9'],
        ],
        [
          [9, '$ACADVER'],
          [1, 'AC1009'],
        ],
      ),
    );
    expect((drawing.modelSpace[0] as Of<'TEXT'>).text).toBe('A中日한é');
  });

  it('reads UTF-8 for R2007+ whatever $DWGCODEPAGE says', () => {
    const { drawing } = readDxf(
      entitiesDxf(
        [
          [0, 'MTEXT'],
          [1, '设计说明'],
        ],
        [
          [9, '$ACADVER'],
          [1, 'AC1032'],
          [9, '$DWGCODEPAGE'],
          [3, 'ANSI_1252'],
        ],
      ),
    );
    expect(drawing.header.encoding).toBe('utf-8');
    expect((drawing.modelSpace[0] as Of<'MTEXT'>).text).toBe('设计说明');
  });

  it('decodes the generated GBK R2000 and UTF-8 R2018 fixtures to the same Chinese text', () => {
    for (const [name, enc] of [
      ['gen_zh_r2000_gbk.dxf', 'gbk'],
      ['gen_zh_r2018_utf8.dxf', 'utf-8'],
    ] as const) {
      const { drawing, warnings } = readDxf(fixture(name));
      expect(warnings).toEqual([]);
      expect(drawing.header.encoding).toBe(enc);
      expect(Object.keys(drawing.layers)).toEqual(['0', 'Defpoints', '墙体', '标注', '文字']);
      const texts = drawing.modelSpace.filter((e): e is Of<'TEXT'> => e.type === 'TEXT').map((e) => e.text);
      expect(texts).toEqual(['客厅 Living room', '卧室（主）']);
      const mtext = drawing.modelSpace.find((e): e is Of<'MTEXT'> => e.type === 'MTEXT');
      expect(mtext?.text).toContain('设计说明：\\P1. 本图尺寸单位为毫米。');
      const insert = drawing.modelSpace.find((e): e is Of<'INSERT'> => e.type === 'INSERT');
      expect(insert?.name).toBe('门 Door');
      expect(insert?.attributes[0]?.text).toBe('编号 D-01');
      expect(drawing.blocks['门 Door']?.entities.map((e) => e.type)).toEqual(['ARC', 'LINE', 'ATTDEF']);
      const paper = drawing.layouts[1];
      expect(paper?.name).toBe('布局一');
      expect(paper?.plot?.paperWidth).toBe(420);
      expect(paper?.entities?.map((e) => e.type)).toEqual(['VIEWPORT', 'VIEWPORT', 'TEXT']);
      expect((paper?.entities?.[2] as Of<'TEXT'>).text).toBe('图纸标题：住宅平面图');
      expect(paper?.viewports[1]?.viewHeight).toBe(12000);
    }
  });

  it('maps dos932 to Shift-JIS (R13 fixture)', () => {
    const { drawing } = readDxf(fixture('ezdxf_small_r13.dxf'));
    expect(drawing.header.acadVersion).toBe('AC1012');
    expect(drawing.header.codePage).toBe('dos932');
    expect(drawing.header.encoding).toBe('shift_jis');
    expect(drawing.modelSpace).toHaveLength(16);
    expect(drawing.modelSpace.every((e) => e.type === 'POLYLINE')).toBe(true);
    expect(Object.keys(drawing.layers)).toEqual(['0', '3USMM_PKG', 'FOOT_PRINT']);
  });
});

describe('tables, blocks and layouts', () => {
  it('reads layer flags, linetype patterns incl. complex elements, text styles, dimstyles', () => {
    const bytes = new TextEncoder().encode(
      dxfText([
        [0, 'SECTION'],
        [2, 'TABLES'],
        [0, 'TABLE'],
        [2, 'LTYPE'],
        [0, 'LTYPE'],
        [5, '14'],
        [2, 'GAS'],
        [70, 0],
        [3, 'Gas ---GAS---'],
        [72, 65],
        [73, 3],
        [40, 1.2],
        [49, 0.5],
        [74, 0],
        [49, -0.2],
        [74, 2],
        [75, 0],
        [340, '11'],
        [46, 0.1],
        [50, 0],
        [44, -0.1],
        [45, -0.05],
        [9, 'GAS'],
        [49, -0.5],
        [74, 0],
        [0, 'ENDTAB'],
        [0, 'TABLE'],
        [2, 'LAYER'],
        [0, 'LAYER'],
        [2, 'Frozen'],
        [70, 5],
        [62, 4],
        [6, 'GAS'],
        [370, 50],
        [290, 0],
        [420, 0x00ff80],
        [0, 'ENDTAB'],
        [0, 'TABLE'],
        [2, 'STYLE'],
        [0, 'STYLE'],
        [2, 'HZ'],
        [70, 0],
        [40, 0],
        [41, 0.7],
        [50, 15],
        [71, 0],
        [3, 'txt.shx'],
        [4, 'hztxt.shx'],
        [0, 'STYLE'],
        [2, 'ARIAL'],
        [70, 0],
        [40, 2],
        [3, 'arial.ttf'],
        [1001, 'ACAD'],
        [1000, 'Arial'],
        [1071, 34],
        [0, 'ENDTAB'],
        [0, 'TABLE'],
        [2, 'DIMSTYLE'],
        [0, 'DIMSTYLE'],
        [105, '27'],
        [2, 'ISO-25'],
        [40, 1],
        [140, 2.5],
        [0, 'ENDTAB'],
        [0, 'ENDSEC'],
        [0, 'EOF'],
      ]),
    );
    const { drawing } = readDxf(bytes);
    expect(drawing.layers.Frozen).toEqual({
      name: 'Frozen',
      color: { aci: 4, rgb: 0x00ff80 },
      linetype: 'GAS',
      lineweight: 50,
      on: true,
      frozen: true,
      locked: true,
      plot: false,
    });
    const gas = drawing.linetypes.GAS;
    expect(gas?.totalLength).toBe(1.2);
    expect(gas?.elements).toEqual([
      { length: 0.5, kind: 0 },
      { length: -0.2, kind: 2, shapeNumber: 0, styleHandle: '11', scale: 0.1, rotation: 0, offset: [-0.1, -0.05], text: 'GAS' },
      { length: -0.5, kind: 0 },
    ]);
    expect(drawing.textStyles.HZ).toMatchObject({ font: 'txt.shx', bigFont: 'hztxt.shx', widthFactor: 0.7, oblique: 15 });
    expect(drawing.textStyles.ARIAL?.fontFamily).toBe('Arial');
    expect(drawing.dimStyles['ISO-25']).toEqual({ name: 'ISO-25', handle: '27', vars: { 40: 1, 140: 2.5 } });
  });

  it('maps LAYOUT objects to their paper-space blocks (skydxf fixture)', () => {
    const { drawing } = readDxf(fixture('skydxf_testModelPaperSpace.dxf'));
    expect(drawing.modelSpace.map((e) => e.type)).toEqual(['LINE', 'LINE', 'LINE', 'LINE', 'LINE', 'LINE']);
    expect((drawing.modelSpace[1] as Of<'LINE'>).start).toEqual([10, 0, 0]);
    expect(drawing.layouts.map((l) => [l.name, l.blockName, l.isModel])).toEqual([
      ['Model', '*Model_Space', true],
      ['Test Sheet', '*Paper_Space', false],
    ]);
    const sheet = drawing.layouts[1];
    expect(sheet?.plot?.paperName).toBe('ANSI_A_(11.00_x_8.50_Inches)');
    expect([sheet?.plot?.paperWidth, sheet?.plot?.paperHeight]).toEqual([279.4, 215.9]);
    expect(sheet?.viewports.map((v) => v.id)).toEqual([1, 2]);
    expect(sheet?.viewports[1]?.viewCenter[0]).toBeCloseTo(5.0079, 4);
    const circle = sheet?.entities?.[2] as Of<'CIRCLE'>;
    expect([circle.center, circle.radius, circle.paperSpace]).toEqual([[5, 5, 0], 1, true]);
  });

  it('reads an R12 ENTITIES-only file with a paper-space entity (synthetic layouts)', () => {
    const { drawing } = readDxf(
      entitiesDxf([
        [0, 'LINE'],
        [10, 0],
        [20, 0],
        [11, 1],
        [21, 1],
        [0, 'CIRCLE'],
        [67, 1],
        [10, 1],
        [20, 1],
        [40, 1],
      ]),
    );
    expect(drawing.header.acadVersion).toBe('');
    expect(drawing.modelSpace.map((e) => e.type)).toEqual(['LINE']);
    expect(drawing.layouts.map((l) => [l.name, l.entities?.map((e) => e.type)])).toEqual([
      ['Model', undefined],
      ['Layout1', ['CIRCLE']],
    ]);
  });

  it('reads MINSERT attributes from the ezdxf fixture', () => {
    const { drawing } = readDxf(fixture('ezdxf_multi_insert_with_attribs.dxf'));
    const ins = drawing.modelSpace[0] as Of<'INSERT'>;
    expect([ins.name, ins.columnCount, ins.rowCount, ins.columnSpacing, ins.rowSpacing, ins.rotation]).toEqual(['FLAG', 5, 5, 10, 10, 15]);
    expect(ins.attributes.map((a) => [a.tag, a.text])).toEqual([
      ['NAME', 'Flag'],
      ['XPOS', 'x = 0.000'],
      ['YPOS', 'y = 0.000'],
    ]);
    expect(drawing.blocks.FLAG?.entities.map((e) => e.type)).toEqual(['POLYLINE', 'CIRCLE', 'ATTDEF', 'ATTDEF', 'ATTDEF']);
  });

  it('joins long MTEXT chunks (dxf-parser fixture)', () => {
    const { drawing } = readDxf(fixture('dxfparser_mtext-test.dxf'));
    const [a, b] = drawing.modelSpace as [Of<'MTEXT'>, Of<'MTEXT'>];
    expect(a.text.length).toBe(1024);
    expect(a.text).not.toMatch(/ {2}/);
    expect(a.text.startsWith('Lorem ipsum dolor sit amet consectetur')).toBe(true);
    expect(a.text.endsWith('magna turpis sagittis imperdie.')).toBe(true);
    expect(b.text).toBe('Lorem ipsum dolor sit amet consectetur adipiscing elit vitae, congue mus odio lobortis habitasse parturient sem.');
    expect(b.attachment).toBe(2);
  });
});

describe('binary DXF', () => {
  it('detects the binary sentinel and ASCII files', () => {
    expect(detectDxf(fixture('ezdxf_bin_dxf_r12.dxf'))).toBe('binary');
    expect(detectDxf(fixture('ezdxf_small_r13.dxf'))).toBe('ascii');
    expect(detectDxf(new TextEncoder().encode('hello'))).toBeNull();
  });

  it('reads R12 binary (1-byte group codes)', () => {
    const { drawing, warnings } = readDxf(fixture('ezdxf_bin_dxf_r12.dxf'));
    expect(warnings).toEqual([]);
    expect(drawing.header.acadVersion).toBe('AC1009');
    expect(drawing.modelSpace.map((e) => e.type)).toEqual(['LINE', 'LINE', 'LINE']);
    const l = drawing.modelSpace[0] as Of<'LINE'>;
    expect(l.handle).toBe('111');
    expect(l.start[0]).toBeCloseTo(335.7175512218761, 10);
    expect(l.end[1]).toBeCloseTo(304.2703520470918, 10);
    expect(Object.keys(drawing.layers)).toEqual(['0']);
    expect(drawing.textStyles.STANDARD?.font).toBe('arial.ttf');
  });

  it('reads R2000 binary (2-byte group codes, LAYOUT objects)', () => {
    const { drawing, warnings } = readDxf(fixture('ezdxf_bin_dxf_r2000.dxf'));
    expect(warnings).toEqual([]);
    expect(drawing.header.acadVersion).toBe('AC1015');
    expect(Object.keys(drawing.layers)).toEqual(['0', 'Defpoints']);
    const t = drawing.modelSpace[0] as Of<'TEXT'>;
    expect([t.type, t.text, t.height, t.handle]).toEqual(['TEXT', 'ezdxf', 2.5, '2D']);
    expect(drawing.layouts.map((l) => [l.name, l.plot?.paperName])).toEqual([
      ['Model', 'A4'],
      ['Layout1', 'A4'],
    ]);
  });

  it('reports a truncated binary file as a drawing with a warning', () => {
    const full = fixture('ezdxf_bin_dxf_r12.dxf');
    const { drawing, warnings } = readDxf(full.subarray(0, Math.floor(full.length * 0.8)));
    expect(warnings).toContain('The file is truncated');
    expect(drawing.header.acadVersion).toBe('AC1009');
    expect(() => readDxf(full.subarray(0, 23))).toThrow(CadReadError);
  });
});

describe('errors', () => {
  const reason = (bytes: Uint8Array): string => {
    try {
      readDxf(bytes);
    } catch (e) {
      if (e instanceof CadReadError) return e.reason;
      throw e;
    }
    return 'read';
  };

  it('refuses empty input, a PNG and plain text with a CadReadError reason', () => {
    expect(reason(new Uint8Array())).toBe('empty');
    expect(reason(new TextEncoder().encode(' \n\n'))).toBe('empty');
    expect(reason(hex('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489'))).toBe('not-dxf');
    expect(reason(new TextEncoder().encode('Hello, this is not a drawing.\n'))).toBe('not-dxf');
  });

  it('reads through garbage in the middle and out-of-range numbers with warnings', () => {
    const text =
      dxfText([
        [0, 'SECTION'],
        [2, 'ENTITIES'],
        [0, 'LINE'],
        [10, '1e999'],
        [20, 'abc'],
        [11, 3],
        [21, 4],
      ]) +
      'garbage line\n\x00\x01\x02 more junk\n' +
      dxfText([
        [0, 'CIRCLE'],
        [10, 1],
        [20, 2],
        [40, 3],
        [0, 'ENDSEC'],
        [0, 'EOF'],
      ]);
    const { drawing, warnings } = readDxf(new TextEncoder().encode(text));
    expect(drawing.modelSpace.map((e) => e.type)).toEqual(['LINE', 'CIRCLE']);
    expect((drawing.modelSpace[0] as Of<'LINE'>).start).toEqual([0, 0, 0]);
    expect((drawing.modelSpace[1] as Of<'CIRCLE'>).radius).toBe(3);
    expect(warnings.some((w) => w.includes('malformed lines'))).toBe(true);
    expect(warnings.some((w) => w.includes('out-of-range'))).toBe(true);
  });

  it('reads a file truncated in the middle of an entity', () => {
    const text =
      dxfText([
        [0, 'SECTION'],
        [2, 'ENTITIES'],
        [0, 'LINE'],
        [10, 1],
        [20, 2],
        [0, 'CIRCLE'],
        [10, 1],
      ]) + '20\n';
    const { drawing } = readDxf(new TextEncoder().encode(text));
    expect(drawing.modelSpace.map((e) => e.type)).toEqual(['LINE', 'CIRCLE']);
  });
});

describe('R2018 embedded objects and draw order', () => {
  it('MTEXT keeps its own insertion and direction and reads columns from the embedded object', () => {
    const { drawing } = readDxf(
      entitiesDxf([
        [0, 'MTEXT'],
        [5, '155'],
        [100, 'AcDbEntity'],
        [8, '0'],
        [100, 'AcDbMText'],
        [10, 0.85],
        [20, 11.7],
        [30, 0],
        [40, 2.5],
        [41, 76.2],
        [46, 12],
        [71, 1],
        [72, 5],
        [1, 'Line 1\\PLine 2'],
        [73, 1],
        [44, 1],
        [101, 'Embedded Object'],
        [70, 1],
        [10, 1],
        [20, 0],
        [30, 0],
        [11, 0.85],
        [21, 11.7],
        [31, 0],
        [40, 76.2],
        [41, 12],
        [42, 76.2],
        [43, 10.8],
        [71, 2],
        [72, 3],
        [44, 24.6],
        [45, 1.2],
        [73, 1],
        [74, 0],
        [46, 5],
        [46, 6],
      ]),
    );
    const m = drawing.modelSpace[0] as EntityOf<'MTEXT'>;
    expect(m.insertion).toEqual([0.85, 11.7, 0]);
    expect(m.rotation).toBe(0);
    expect(m.columns).toEqual({ type: 2, count: 3, width: 24.6, gutter: 1.2, autoHeight: true, heights: [5, 6] });
    expect(m.definedHeight).toBe(12);
  });

  it('a multi-line ATTRIB carries its embedded MTEXT', () => {
    const { drawing } = readDxf(
      entitiesDxf([
        [0, 'INSERT'],
        [8, '0'],
        [66, 1],
        [2, 'B'],
        [10, 0],
        [20, 0],
        [0, 'ATTRIB'],
        [100, 'AcDbEntity'],
        [8, '0'],
        [100, 'AcDbText'],
        [10, 977],
        [20, 27],
        [40, 1.7],
        [1, ''],
        [100, 'AcDbAttribute'],
        [2, 'MULTI'],
        [70, 0],
        [71, 2],
        [101, 'Embedded Object'],
        [10, 977],
        [20, 28.75],
        [30, 0],
        [40, 1.72],
        [41, 0],
        [46, 0],
        [71, 1],
        [72, 5],
        [1, 'two\\Plines'],
        [73, 1],
        [44, 1],
        [0, 'SEQEND'],
      ]),
    );
    const a = (drawing.modelSpace[0] as EntityOf<'INSERT'>).attributes[0]!;
    expect(a.tag).toBe('MULTI');
    expect(a.mtext).toMatchObject({ type: 'MTEXT', text: 'two\\Plines', insertion: [977, 28.75, 0], height: 1.72, attachment: 1 });
  });

  it('reads SORTENTSTABLE into the draw order of its block record', () => {
    const text = dxfText([
      [0, 'SECTION'],
      [2, 'OBJECTS'],
      [0, 'SORTENTSTABLE'],
      [5, '90'],
      [102, '{ACAD_REACTORS'],
      [330, '8F'],
      [102, '}'],
      [330, '8F'],
      [100, 'AcDbSortentsTable'],
      [330, '1F'],
      [331, 'A1'],
      [5, 'B0'],
      [331, 'A2'],
      [5, '70'],
      [0, 'ENDSEC'],
      [0, 'EOF'],
    ]);
    const { drawing } = readDxf(new TextEncoder().encode(text));
    expect(drawing.drawOrder).toEqual({ '1F': { A1: 'B0', A2: '70' } });
  });
});
