/**
 * What the resident engine does before it takes commands: a made-up drawing with the common
 * entity types (lines and polylines on dashed layers, arcs, circles, an ellipse, a spline, text,
 * MTEXT with Chinese, a pattern and a solid hatch, block references with attributes, dimensions
 * with and without their block, a leader, a 3D face, an XLINE) and text in a style per
 * substitute font (the ASCII characters, and the Chinese ones drawings use most) converted
 * twice to PDF, PNG and SVG, written as DXF and DWG, and its PDF read back as a drawing (PDF
 * input, whose pdf.js alone takes ~0.3 s to load). The reader, the display-list builder, the text
 * layout, each back end and writer are then loaded, their fonts parsed, and their hot code
 * compiled by V8 before the first real command rather than during it.
 */
import { convertDrawing } from '@xcad/cad/convert';
import { convertToDwg } from '@xcad/cad/dwg-writer';
import { convertToDxf } from '@xcad/cad/dxf-writer';
import { pdfToDrawing } from '@xcad/cad/pdf';

type Group = [number, string | number];

const ROUNDS = 2;

/** Style name, font file, big font: one for each substitute the engine sets text in (text/fonts.ts: DejaVu Sans, Liberation Sans regular and bold, Liberation Serif, DejaVu Sans Mono, Liberation Mono, Noto Sans SC and Noto Serif SC). */
const STYLES: [string, string, string][] = [
  ['STANDARD', 'txt.shx', 'gbcbig.shx'],
  ['ARIAL', 'arial.ttf', ''],
  ['ARIAL_BOLD', 'arialbd.ttf', ''],
  ['TIMES', 'times.ttf', ''],
  ['CONSOLAS', 'consola.ttf', ''],
  ['COURIER', 'cour.ttf', ''],
  ['SIMSUN', 'simsun.ttc', ''],
  ['SIMHEI', 'simhei.ttf', ''],
];
const ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i))
  .join('')
  .replace(/%/g, '');
/** Characters Chinese drawings use most: title blocks, notes, room and part names, units. */
const COMMON_HANZI =
  '建筑结构给排水暖通电气平面立剖详大样图纸目录设计说明施工总节点做法比例日期审核校对制图专业负责人项目工程名称编号版本' +
  '层楼梯间门窗墙柱梁板基础屋顶地下室卫生厨房客厅卧阳台走廊电井管道风口灯具插座开关配箱线缆桥架标高尺寸轴网注释' +
  '钢筋混凝土砖砌体保温防水涂料面砖吊顶材料规格型号数量单位备注厚度宽长度直径半径角中心左右上下前后内外新增拆除修改' +
  '一二三四五六七八九十零百千米毫厘个第号甲乙丙丁，。、：；（）【】《》“”！？＋－×÷±°Φ≤≥％';

export function warmDrawing(): Uint8Array {
  const g: Group[] = [];
  g.push([0, 'SECTION'], [2, 'HEADER'], [9, '$ACADVER'], [1, 'AC1015'], [9, '$INSUNITS'], [70, 4], [9, '$LTSCALE'], [40, 1], [0, 'ENDSEC']);
  g.push([0, 'SECTION'], [2, 'TABLES']);
  g.push([0, 'TABLE'], [2, 'LTYPE'], [70, 2]);
  g.push([0, 'LTYPE'], [2, 'CONTINUOUS'], [70, 0], [3, 'Solid line'], [72, 65], [73, 0], [40, 0]);
  g.push([0, 'LTYPE'], [2, 'DASHED'], [70, 0], [3, '__ __ __'], [72, 65], [73, 2], [40, 15], [49, 10], [74, 0], [49, -5], [74, 0]);
  g.push([0, 'ENDTAB']);
  g.push([0, 'TABLE'], [2, 'LAYER'], [70, 3]);
  for (const [name, color, lt] of [
    ['0', 7, 'CONTINUOUS'],
    ['墙体', 1, 'CONTINUOUS'],
    ['轴线', 5, 'DASHED'],
  ] as const)
    g.push([0, 'LAYER'], [2, name], [70, 0], [62, color], [6, lt]);
  g.push([0, 'ENDTAB']);
  // A style per substitute font the engine sets text in (names as drawings carry them).
  g.push([0, 'TABLE'], [2, 'STYLE'], [70, STYLES.length]);
  for (const [name, font, big] of STYLES)
    g.push([0, 'STYLE'], [2, name], [70, 0], [40, 0], [41, name === 'STANDARD' ? 0.8 : 1], [3, font], [4, big]);
  g.push([0, 'ENDTAB']);
  g.push([0, 'ENDSEC']);
  // A block with geometry and an attribute.
  g.push([0, 'SECTION'], [2, 'BLOCKS'], [0, 'BLOCK'], [8, '0'], [2, 'TAG'], [70, 2], [10, 0], [20, 0], [30, 0]);
  g.push([0, 'CIRCLE'], [8, '0'], [10, 0], [20, 0], [30, 0], [40, 5]);
  g.push([0, 'LINE'], [8, '0'], [10, -5], [20, 0], [30, 0], [11, 5], [21, 0], [31, 0]);
  g.push(
    [0, 'ATTDEF'],
    [8, '0'],
    [10, -3],
    [20, -1.5],
    [30, 0],
    [40, 3],
    [1, 'A1'],
    [3, 'Number'],
    [2, 'NO'],
    [70, 0],
    [72, 1],
    [11, 0],
    [21, 0],
    [31, 0],
    [74, 2],
  );
  g.push([0, 'ENDBLK'], [8, '0']);
  // A dimension's block, as CAD programs save it: lines, arrowheads and the laid-out text.
  g.push([0, 'BLOCK'], [8, '0'], [2, '*D1'], [70, 1], [10, 0], [20, 0], [30, 0]);
  g.push([0, 'LINE'], [8, '0'], [10, 20], [20, 460], [30, 0], [11, 220], [21, 460], [31, 0]);
  for (const x of [20, 220]) g.push([0, 'LINE'], [8, '0'], [10, x], [20, 440], [30, 0], [11, x], [21, 463], [31, 0]);
  g.push(
    [0, 'SOLID'],
    [8, '0'],
    [10, 20],
    [20, 460],
    [30, 0],
    [11, 26],
    [21, 461],
    [31, 0],
    [12, 26],
    [22, 459],
    [32, 0],
    [13, 26],
    [23, 459],
    [33, 0],
  );
  g.push(
    [0, 'SOLID'],
    [8, '0'],
    [10, 220],
    [20, 460],
    [30, 0],
    [11, 214],
    [21, 461],
    [31, 0],
    [12, 214],
    [22, 459],
    [32, 0],
    [13, 214],
    [23, 459],
    [33, 0],
  );
  g.push([0, 'MTEXT'], [8, '0'], [10, 120], [20, 462], [30, 0], [40, 3.5], [71, 8], [1, '200']);
  g.push([0, 'ENDBLK'], [8, '0'], [0, 'ENDSEC']);
  g.push([0, 'SECTION'], [2, 'ENTITIES']);
  for (let i = 0; i < 60; i++) {
    const y = i * 7;
    g.push([0, 'LINE'], [8, i % 3 === 2 ? '轴线' : '墙体'], [10, 0], [20, y], [30, 0], [11, 400], [21, y + (i % 5)], [31, 0]);
  }
  for (let i = 0; i < 12; i++) {
    const x = 20 + i * 30;
    g.push(
      [0, 'LWPOLYLINE'],
      [8, '墙体'],
      [90, 4],
      [70, 1],
      [43, 0.5],
      [10, x],
      [20, 20],
      [42, 0.4],
      [10, x + 20],
      [20, 20],
      [10, x + 20],
      [20, 40],
      [42, -0.3],
      [10, x],
      [20, 40],
    );
    g.push([0, 'ARC'], [8, '0'], [10, x + 10], [20, 80], [30, 0], [40, 8], [50, 15 * i], [51, 200 + 5 * i]);
    g.push([0, 'CIRCLE'], [8, '0'], [62, (i % 7) + 1], [10, x + 10], [20, 110], [30, 0], [40, 4 + (i % 3)]);
    g.push(
      [0, 'TEXT'],
      [8, '0'],
      [10, x],
      [20, 130],
      [30, 0],
      [40, 3.5],
      [1, `A-${i} 门窗 ${i * 100}`],
      [50, i * 3],
      [72, i % 3],
      [11, x + 5],
      [21, 130],
      [31, 0],
    );
    g.push(
      [0, 'INSERT'],
      [8, '0'],
      [66, 1],
      [2, 'TAG'],
      [10, x + 10],
      [20, 160],
      [30, 0],
      [41, 1 + (i % 2)],
      [42, 1 + (i % 2)],
      [50, i * 10],
    );
    g.push(
      [0, 'ATTRIB'],
      [8, '0'],
      [10, x + 7],
      [20, 158.5],
      [30, 0],
      [40, 3],
      [1, String(i + 1)],
      [2, 'NO'],
      [70, 0],
      [0, 'SEQEND'],
      [8, '0'],
    );
  }
  g.push([0, 'ELLIPSE'], [8, '0'], [10, 200], [20, 200], [30, 0], [11, 60], [21, 10], [31, 0], [40, 0.4], [41, 0], [42, 6.283185307179586]);
  g.push([0, 'SPLINE'], [8, '0'], [70, 8], [71, 3], [72, 8], [73, 4], [74, 0]);
  for (const k of [0, 0, 0, 0, 1, 1, 1, 1]) g.push([40, k]);
  for (const [x, y] of [
    [0, 220],
    [40, 260],
    [80, 200],
    [120, 250],
  ])
    g.push([10, x as number], [20, y as number], [30, 0]);
  g.push(
    [0, 'MTEXT'],
    [8, '0'],
    [10, 150],
    [20, 300],
    [30, 0],
    [40, 4],
    [41, 120],
    [71, 1],
    [1, '{\\fSimSun|b0;建筑平面图}\\P{\\C1;比例} 1:100\\P\\S2.5^0.5;说明：门窗尺寸以现场为准。'],
  );
  g.push([0, 'HATCH'], [8, '0'], [62, 8], [10, 0], [20, 0], [30, 0], [2, 'ANSI31'], [70, 0], [71, 0], [91, 1]);
  g.push([92, 1], [93, 4], [72, 1], [10, 250], [20, 20], [11, 350], [21, 20], [72, 1], [10, 350], [20, 20], [11, 350], [21, 60]);
  g.push([72, 2], [10, 300], [20, 60], [40, 50], [50, 0], [51, 180], [73, 1], [72, 1], [10, 250], [20, 60], [11, 250], [21, 20], [97, 0]);
  g.push([75, 0], [76, 1], [52, 0], [41, 1], [77, 0], [78, 1], [53, 45], [43, 0], [44, 0], [45, -2.5], [46, 2.5], [79, 0], [98, 0]);
  g.push(
    [0, 'HATCH'],
    [8, '0'],
    [62, 3],
    [10, 0],
    [20, 0],
    [30, 0],
    [2, 'SOLID'],
    [70, 1],
    [71, 0],
    [91, 1],
    [92, 2],
    [72, 0],
    [73, 1],
    [93, 3],
  );
  g.push([10, 370], [20, 0], [10, 400], [20, 0], [10, 400], [20, 30], [97, 0], [75, 0], [76, 1], [98, 0]);
  // Text in every style: the characters drawings use most, so each font's tables are read and
  // its common glyphs decoded (outlines for PNG, subsets for PDF) before a real command needs them.
  STYLES.forEach(([name, , big], i) => {
    const y = 500 + i * 12;
    g.push([0, 'TEXT'], [8, '0'], [7, name], [10, 0], [20, y], [30, 0], [40, 4], [1, `${ASCII} %%c20 %%d %%p0.5`]);
    if (big || /sim|hei|song/i.test(name))
      g.push([0, 'TEXT'], [8, '0'], [7, name], [10, 600], [20, y], [30, 0], [40, 4], [1, COMMON_HANZI]);
  });
  g.push(
    [0, 'MTEXT'],
    [8, '0'],
    [10, 0],
    [20, 620],
    [30, 0],
    [40, 3],
    [41, 300],
    [71, 1],
    [1, '{\\fArial|b1|i0;Bold} {\\fTimes New Roman|b0|i1;Italic} {\\fSimHei|b0;黑体标题}\\P{\\H0.7x;\\S+0.1^-0.2;} \\LUnder\\l'],
  );
  g.push(
    [0, 'DIMENSION'],
    [8, '0'],
    [2, '*D1'],
    [10, 220],
    [20, 460],
    [30, 0],
    [11, 120],
    [21, 462],
    [31, 0],
    [70, 32],
    [3, 'STANDARD'],
    [13, 20],
    [23, 440],
    [33, 0],
    [14, 220],
    [24, 440],
    [34, 0],
  );
  // One without its block (some writers leave it out): drawn from the definition points.
  g.push(
    [0, 'DIMENSION'],
    [8, '0'],
    [10, 400],
    [20, 480],
    [30, 0],
    [11, 350],
    [21, 482],
    [31, 0],
    [70, 0],
    [3, 'STANDARD'],
    [13, 250],
    [23, 440],
    [33, 0],
    [14, 400],
    [24, 440],
    [34, 0],
  );
  g.push(
    [0, 'LEADER'],
    [8, '0'],
    [3, 'STANDARD'],
    [71, 1],
    [72, 0],
    [76, 3],
    [10, 250],
    [20, 300],
    [30, 0],
    [10, 280],
    [20, 330],
    [30, 0],
    [10, 300],
    [20, 330],
    [30, 0],
  );
  g.push([0, 'POLYLINE'], [8, '墙体'], [66, 1], [10, 0], [20, 0], [30, 0], [70, 1]);
  for (const [x, y, b] of [
    [420, 0, 0],
    [460, 0, 0.5],
    [460, 40, 0],
    [420, 40, 0],
  ])
    g.push([0, 'VERTEX'], [8, '墙体'], [10, x as number], [20, y as number], [30, 0], [42, b as number]);
  g.push([0, 'SEQEND'], [8, '墙体']);
  g.push(
    [0, '3DFACE'],
    [8, '0'],
    [10, 420],
    [20, 60],
    [30, 0],
    [11, 460],
    [21, 60],
    [31, 0],
    [12, 460],
    [22, 90],
    [32, 5],
    [13, 420],
    [23, 90],
    [33, 5],
  );
  g.push([0, 'POINT'], [8, '0'], [10, 440], [20, 120], [30, 0]);
  g.push([0, 'XLINE'], [8, '轴线'], [10, 0], [20, 0], [30, 0], [11, 0.6], [21, 0.8], [31, 0]);
  g.push([0, 'ENDSEC'], [0, 'EOF']);
  return new TextEncoder().encode(g.map(([c, v]) => `${c}\n${v}\n`).join(''));
}

/** Runs one step of the warm-up; a step that fails here fails the same way for real commands, and says so there. */
async function step<T>(run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch {
    return null;
  }
}

export async function warmUp(): Promise<void> {
  const drawing = warmDrawing();
  let pdf: Uint8Array | null = null;
  for (let round = 0; round < ROUNDS; round++) {
    for (const format of ['pdf', 'png', 'svg'] as const) {
      const r = await step(() => convertDrawing(drawing, { format, name: 'warm-up.dxf', ...(format === 'png' ? { width: 800 } : {}) }));
      if (format === 'pdf') pdf = r?.outputs[0]?.data ?? null;
    }
  }
  await step(() => convertToDxf(drawing, 'warm-up.dxf', { version: '2018', binary: false }));
  await step(() => convertToDwg(drawing, 'warm-up.dxf', { version: '2018' }));
  const page = pdf;
  if (page) await step(() => pdfToDrawing(page));
}
