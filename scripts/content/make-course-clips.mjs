// Authoring tool of the video course (decision 0012): renders the 20 lessons' original short clips and
// posters from the scenes below, then writes each clip's real duration into content/course/lessons.yml.
// Not run by `npm start` or CI (ffmpeg is needed only here): its outputs are committed.
//
//   node scripts/content/make-course-clips.mjs                 every lesson
//   node scripts/content/make-course-clips.mjs --only 3,12     some lessons
//   node scripts/content/make-course-clips.mjs --peek /tmp/p   also writes PNG stills for a look
//   node scripts/content/make-course-clips.mjs --posters-only  only the posters (clips untouched)
//
// Each frame is an SVG (a dark CAD model space with a grid, entities drawn step by step, the command
// line typed at the bottom, a tip strip) rasterised by sharp and piped into ffmpeg: H.264 (libx264,
// yuv420p, +faststart), 640x360, 15 fps, no audio track. Free lessons' clips go to
// content/media/course/, member lessons' to content/private/course/, every poster (JPEG) to
// content/media/course/.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { parse as parseYaml } from 'yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LESSONS_FILE = path.join(ROOT, 'content/course/lessons.yml');
const PUBLIC_DIR = path.join(ROOT, 'content/media/course');
const PRIVATE_DIR = path.join(ROOT, 'content/private/course');

const W = 640;
const H = 360;
const FPS = 15;
const TOP = 28;
const CMD_TOP = 300;
const INTRO = 2.5;
const MIN_OUTRO = 2.5;
const FONT = "'Noto Sans CJK SC', 'Noto Sans', sans-serif";
const MONO = "'DejaVu Sans Mono', 'Noto Sans CJK SC', monospace";
const BG = '#1f262e';

const C = {
  white: '#eef1f4',
  red: '#ff5c5c',
  yellow: '#ffd84a',
  green: '#5ee07a',
  cyan: '#4fd6ff',
  blue: '#6c9cff',
  magenta: '#ff72d9',
  gray: '#8d98a5',
  dim: '#5b6673',
  ink: '#222831',
};
const DASH = { center: '16 4 3 4', dashed: '7 4', hidden: '4 3', fine: '3 3' };

// ---------------------------------------------------------------- geometry and entities

const rad = (degrees) => (degrees * Math.PI) / 180;
const fmt = (value) => Math.round(value * 10) / 10;
const esc = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Points of an arc (degrees, counter-clockwise as seen on screen, y down). */
function arcPoints(cx, cy, r, from, to) {
  const steps = Math.max(8, Math.ceil(Math.abs(to - from) / 5));
  return Array.from({ length: steps + 1 }, (_, index) => {
    const angle = rad(from + ((to - from) * index) / steps);
    return [cx + r * Math.cos(angle), cy - r * Math.sin(angle)];
  });
}

function polyLength(points) {
  let total = 0;
  for (let index = 1; index < points.length; index += 1) {
    total += Math.hypot(points[index][0] - points[index - 1][0], points[index][1] - points[index - 1][1]);
  }
  return total;
}

/** The first `fraction` of a polyline by length. */
function partial(points, fraction) {
  if (fraction >= 1) return points;
  const target = polyLength(points) * Math.max(0, fraction);
  const out = [points[0]];
  let walked = 0;
  for (let index = 1; index < points.length; index += 1) {
    const [x0, y0] = points[index - 1];
    const [x1, y1] = points[index];
    const length = Math.hypot(x1 - x0, y1 - y0);
    if (walked + length >= target) {
      const t = length === 0 ? 0 : (target - walked) / length;
      out.push([x0 + (x1 - x0) * t, y0 + (y1 - y0) * t]);
      return out;
    }
    walked += length;
    out.push(points[index]);
  }
  return out;
}

const path_ = (points, o = {}) => ({ type: 'path', points, color: o.color ?? C.white, width: o.width ?? 1.4, dash: o.dash, fill: o.fill, id: o.id, instant: o.instant });
const line = (x1, y1, x2, y2, o) => path_([[x1, y1], [x2, y2]], o);
const poly = (points, o) => path_(points, o);
const closed = (points, o) => path_([...points, points[0]], o);
const rect = (x, y, w, h, o) => closed([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], o);
const circle = (cx, cy, r, o) => path_(arcPoints(cx, cy, r, 0, 360), o);
const arc = (cx, cy, r, from, to, o) => path_(arcPoints(cx, cy, r, from, to), o);
const text = (x, y, value, o = {}) => ({ type: 'text', x, y, value, size: o.size ?? 13, color: o.color ?? C.white, anchor: o.anchor ?? 'start', weight: o.weight, rotate: o.rotate, font: o.font, id: o.id, instant: o.instant });
const hatch = (points, o = {}) => ({ type: 'hatch', points, angle: o.angle ?? 45, gap: o.gap ?? 9, color: o.color ?? C.yellow, cross: o.cross ?? false, id: o.id, instant: o.instant });
const marker = (x, y, kind, label) => ({ type: 'marker', x, y, kind, label });
const windowBox = (x1, y1, x2, y2, crossing = false) => ({ type: 'window', x1, y1, x2, y2, crossing });
const panel = (x, y, w, title, rows, o = {}) => ({ type: 'panel', x, y, w, title, rows, id: o.id, instant: o.instant });
const cover = (x, y, w, h, o = {}) => ({ type: 'cover', x, y, w, h, fill: o.fill ?? BG, opacity: o.opacity ?? 1, id: o.id, instant: true });
const group = (parts, o = {}) => ({ type: 'group', parts, id: o.id, instant: o.instant });
const tooltip = (x, y, value) => ({ type: 'tooltip', x, y, value });

/** A closed polygon through `points` (for hatch boundaries and outlines). */
const polygonPoints = (cx, cy, r, sides, start) => Array.from({ length: sides }, (_, index) => [cx + r * Math.cos(rad(start + (360 * index) / sides)), cy - r * Math.sin(rad(start + (360 * index) / sides))]);

function arrowHead(x, y, angle, color) {
  const size = 7;
  const spread = rad(16);
  const a = rad(angle);
  const p1 = [x - size * Math.cos(a - spread), y + size * Math.sin(a - spread)];
  const p2 = [x - size * Math.cos(a + spread), y + size * Math.sin(a + spread)];
  return path_([[x, y], p1, p2, [x, y]], { color, width: 1, fill: color });
}

/** A horizontal linear dimension between x1 and x2, measured from y1/y2, drawn at yDim. */
function dimH(x1, y1, x2, y2, yDim, label, color = C.green) {
  const sign = yDim < Math.min(y1, y2) ? -1 : 1;
  return group([
    line(x1, y1 + sign * 3, x1, yDim + sign * 4, { color, width: 1 }),
    line(x2, y2 + sign * 3, x2, yDim + sign * 4, { color, width: 1 }),
    line(x1, yDim, x2, yDim, { color, width: 1 }),
    arrowHead(x1, yDim, 180, color),
    arrowHead(x2, yDim, 0, color),
    text((x1 + x2) / 2, yDim - 4, label, { size: 12, color, anchor: 'middle', font: MONO }),
  ]);
}

/** A vertical linear dimension between y1 and y2, measured from x1/x2, drawn at xDim. */
function dimV(y1, x1, y2, x2, xDim, label, color = C.green) {
  const sign = xDim < Math.min(x1, x2) ? -1 : 1;
  return group([
    line(x1 + sign * 3, y1, xDim + sign * 4, y1, { color, width: 1 }),
    line(x2 + sign * 3, y2, xDim + sign * 4, y2, { color, width: 1 }),
    line(xDim, y1, xDim, y2, { color, width: 1 }),
    arrowHead(xDim, y1, 90, color),
    arrowHead(xDim, y2, 270, color),
    text(xDim - 4, (y1 + y2) / 2, label, { size: 12, color, anchor: 'middle', rotate: -90, font: MONO }),
  ]);
}

/** A radius or diameter dimension of a circle, leader at `angle` degrees. */
function dimCircle(cx, cy, r, angle, label, diameter, color = C.green) {
  const a = rad(angle);
  const edge = [cx + r * Math.cos(a), cy - r * Math.sin(a)];
  const outer = [cx + (r + 26) * Math.cos(a), cy - (r + 26) * Math.sin(a)];
  const start = diameter ? [cx - r * Math.cos(a), cy + r * Math.sin(a)] : [cx, cy];
  const shelf = [outer[0] + (Math.cos(a) >= 0 ? 34 : -34), outer[1]];
  const parts = [poly([start, edge, outer, shelf], { color, width: 1 }), arrowHead(edge[0], edge[1], angle, color)];
  if (diameter) parts.push(arrowHead(start[0], start[1], angle + 180, color));
  parts.push(text((outer[0] + shelf[0]) / 2, outer[1] - 4, label, { size: 12, color, anchor: 'middle', font: MONO }));
  return group(parts);
}

/** A chair of a plan: seat and backrest (backrest on the `side`). */
function chair(x, y, side, o = {}) {
  const color = o.color ?? C.white;
  const parts = side === 'left' || side === 'right' ? [rect(x, y, 32, 36, { color })] : [rect(x, y, 36, 32, { color })];
  if (side === 'left') parts.push(rect(x - 7, y, 7, 36, { color }));
  if (side === 'right') parts.push(rect(x + 32, y, 7, 36, { color }));
  if (side === 'top') parts.push(rect(x, y - 7, 36, 7, { color }));
  if (side === 'bottom') parts.push(rect(x, y + 32, 36, 7, { color }));
  return group(parts, o);
}

/** A 标高 (elevation) mark with its value, apex at (x, y). */
function levelMark(x, y, value, color = C.white, o = {}) {
  return group(
    [
      closed([[x, y], [x - 11, y - 11], [x + 11, y - 11]], { color, width: 1.2 }),
      line(x - 11, y - 11, x + 56, y - 11, { color, width: 1.2 }),
      text(x - 6, y - 15, value, { size: 12, color: o.textColor ?? color, font: MONO }),
    ],
    o,
  );
}

// ---------------------------------------------------------------- the 20 lesson scenes

/**
 * Steps: `cmd` typed after 命令:, then `prompt` and the typed `input`; `tip` the subtitle; `add`
 * entities drawn one after another and kept; `temp` entities shown during the step only; `remove`
 * ids taken away at `swapAt` (fraction of the step), when `instant` entities appear.
 */
function lessonScenes() {
  // Lesson 2's model coordinates: origin at (60, 250), y up, 1 unit = 1 pixel.
  const m = (x, y) => [60 + x, 250 - y];
  const house = (() => {
    const a = [40, 40];
    const b = [a[0] + 160, a[1]];
    const c = [b[0], b[1] + 100];
    const d = [c[0] + 100 * Math.cos(rad(143)), c[1] + 100 * Math.sin(rad(143))];
    const e = [d[0] + 100 * Math.cos(rad(217)), d[1] + 100 * Math.sin(rad(217))];
    return [a, b, c, d, e].map(([x, y]) => m(x, y));
  })();
  const seg = (p, q, o) => line(p[0], p[1], q[0], q[1], o);

  // Lesson 3: a circle tangent to two lines through (340, 230), radius 30.
  const ttr = (() => {
    const vertex = [350, 236];
    const other = [530, 80];
    const angle = Math.atan2(vertex[1] - other[1], other[0] - vertex[0]);
    const half = angle / 2;
    const distance = 30 / Math.sin(half);
    const center = [vertex[0] + distance * Math.cos(half), vertex[1] - distance * Math.sin(half)];
    const alongLine2 = distance * Math.cos(half);
    return {
      vertex,
      other,
      center,
      t1: [center[0], vertex[1]],
      t2: [vertex[0] + alongLine2 * Math.cos(angle), vertex[1] - alongLine2 * Math.sin(angle)],
    };
  })();
  const arc3 = (() => {
    const [p1, p2, p3] = [[200, 118], [262, 62], [326, 110]];
    const d = 2 * (p1[0] * (p2[1] - p3[1]) + p2[0] * (p3[1] - p1[1]) + p3[0] * (p1[1] - p2[1]));
    const sq = (p) => p[0] * p[0] + p[1] * p[1];
    const ux = (sq(p1) * (p2[1] - p3[1]) + sq(p2) * (p3[1] - p1[1]) + sq(p3) * (p1[1] - p2[1])) / d;
    const uy = (sq(p1) * (p3[0] - p2[0]) + sq(p2) * (p1[0] - p3[0]) + sq(p3) * (p2[0] - p1[0])) / d;
    const r = Math.hypot(p1[0] - ux, p1[1] - uy);
    const angleOf = (p) => (Math.atan2(uy - p[1], p[0] - ux) * 180) / Math.PI;
    return { points: [p1, p2, p3], cx: ux, cy: uy, r, from: angleOf(p1), to: angleOf(p3) };
  })();

  // Lesson 19: an L-shaped support with a hole, in first-angle projection (GB).
  const front = { x: 80, y: 50, w: 120, h: 80, base: 20, hole: [140, 78], r: 11 };
  const topView = { y: 160, d: 60, wall: 18 };
  const leftView = { x: 250 };

  // Lesson 20: a two-bedroom flat at 1 px = 40 mm: bays 3300, 3600, 2400; depths 3600, 3900; 240 walls.
  const axesX = [200, 282.5, 372.5, 432.5];
  const axesY = [62, 152, 249.5];
  const WALL = 3;
  const rooms = [
    [axesX[0], axesY[0], axesX[1], axesY[1]],
    [axesX[1], axesY[0], axesX[2], axesY[1]],
    [axesX[2], axesY[0], axesX[3], axesY[1]],
    [axesX[0], axesY[1], axesX[2], axesY[2]],
    [axesX[2], axesY[1], axesX[3], axesY[2]],
  ];
  const ROOM_NAMES = [['卧室', '10.3㎡'], ['主卧', '11.3㎡'], ['卫生间', '7.3㎡'], ['客厅', '24.4㎡'], ['厨房', '7.9㎡']];
  /** A door in a horizontal wall at y, opening from x over `width`, swinging down (1) or up (-1). */
  const doorH = (x, y, side, width = 22.5) =>
    group([cover(x, y - WALL - 1, width, 2 * WALL + 2), line(x, y + side * WALL, x, y + side * (WALL + width), { color: C.cyan, width: 1.2 }), arc(x, y + side * WALL, width, side > 0 ? -90 : 90, 0, { color: C.cyan, width: 0.8 })]);
  /** A door in a vertical wall at x, opening from y over `width`, swinging right (1) or left (-1). */
  const doorV = (x, y, side, width = 22.5) =>
    group([cover(x - WALL - 1, y, 2 * WALL + 2, width), line(x + side * WALL, y, x + side * (WALL + width), y, { color: C.cyan, width: 1.2 }), arc(x + side * WALL, y, width, side > 0 ? 0 : 180, side > 0 ? -90 : 270, { color: C.cyan, width: 0.8 })]);
  /** A window in a horizontal wall at y from x1 to x2: four thin lines. */
  const windowH = (x1, x2, y) =>
    group([
      cover(x1, y - WALL - 1, x2 - x1, 2 * WALL + 2),
      ...[-WALL, -1, 1, WALL].map((dy) => line(x1, y + dy, x2, y + dy, { color: C.cyan, width: 0.8 })),
      line(x1, y - WALL, x1, y + WALL, { color: C.cyan, width: 0.8 }),
      line(x2, y - WALL, x2, y + WALL, { color: C.cyan, width: 0.8 }),
    ]);

  return {
    1: {
      points: ['命令行：输入命令，空格或回车确认', 'acadiso.dwt 样板：按毫米绘图', '另存为低版本 DWG，方便交流'],
      steps: [
        {
          cmd: 'NEW',
          prompt: '选择样板文件:',
          input: 'acadiso.dwt',
          tip: '新建图纸选 acadiso.dwt 样板：公制单位，1 个单位 = 1 毫米',
          dur: 3.5,
          temp: [panel(170, 62, 300, '选择样板', [{ text: 'acad.dwt' }, { text: 'acadiso.dwt', hl: true }, { text: 'acadiso3D.dwt' }, { text: 'Tutorial-iArch.dwt' }])],
        },
        {
          cmd: '',
          prompt: '命令:',
          input: '',
          tip: '上方绘图区画图，下方命令行输入命令并查看提示',
          dur: 4,
          temp: [
            group([rect(16, 40, 608, 214, { color: C.cyan, dash: DASH.fine, width: 1 }), text(320, 140, '绘图区（模型空间）', { size: 20, color: C.cyan, anchor: 'middle' })]),
            group([line(470, 200, 470, 306, { color: C.yellow, width: 1.2 }), arrowHead(470, 306, 270, C.yellow), text(478, 214, '命令行', { size: 15, color: C.yellow })]),
            group([line(110, 196, 62, 226, { color: C.green, width: 1.2 }), arrowHead(62, 226, 212, C.green), text(116, 194, '坐标系图标 (UCS)', { size: 14, color: C.green })]),
          ],
        },
        {
          cmd: 'LINE',
          prompt: '指定第一个点:',
          input: '(在绘图区单击)',
          tip: '输入命令后，按命令行的提示一步一步操作',
          dur: 3.5,
          add: [rect(190, 80, 260, 130)],
        },
        {
          cmd: 'QSAVE',
          prompt: '图形另存为 文件名:',
          input: '练习01.dwg',
          tip: 'Ctrl+S 保存；文件类型选低版本，同事的旧软件也能打开',
          dur: 4.5,
          temp: [
            panel(150, 52, 340, '图形另存为', [
              { text: '文件名：练习01.dwg' },
              { text: 'AutoCAD 2018 图形 (*.dwg)' },
              { text: 'AutoCAD 2010/LT2010 图形 (*.dwg)', hl: true },
              { text: 'AutoCAD 2004/LT2004 图形 (*.dwg)' },
              { text: 'AutoCAD R12/LT2 DXF (*.dxf)' },
            ]),
          ],
        },
      ],
    },
    2: {
      points: ['绝对坐标 X,Y：从原点量起', '相对坐标 @X,Y；极坐标 @长度<角度', 'C 闭合，U 撤销；F8 正交画水平竖直线'],
      base: [text(m(0, 0)[0] + 4, m(0, 0)[1] - 4, '0,0', { size: 11, color: C.gray, font: MONO })],
      steps: [
        { cmd: 'LINE', prompt: '指定第一个点:', input: '40,40', tip: '绝对坐标 X,Y：从原点 0,0 量起', dur: 2.5, temp: [marker(...house[0], 'point')], add: [text(house[0][0] - 8, house[0][1] + 16, '40,40', { size: 11, color: C.gray, font: MONO })] },
        { prompt: '指定下一点或 [放弃(U)]:', input: '@160,0', tip: '相对坐标 @X,Y：以上一点为基准，向右 160', dur: 2.5, add: [seg(house[0], house[1]), text(house[1][0] - 20, house[1][1] + 16, '@160,0', { size: 11, color: C.gray, font: MONO })] },
        { prompt: '指定下一点或 [放弃(U)]:', input: '@0,100', tip: '@0,100：X 不变，向上 100', dur: 2, add: [seg(house[1], house[2]), text(house[2][0] + 8, house[2][1] + 4, '@0,100', { size: 11, color: C.gray, font: MONO })] },
        {
          prompt: '指定下一点或 [闭合(C)/放弃(U)]:',
          input: '@100<143',
          tip: '极坐标 @长度<角度：角度从 X 轴正向逆时针量',
          dur: 3.5,
          temp: [line(house[2][0], house[2][1], house[2][0] + 50, house[2][1], { color: C.gray, dash: DASH.fine, width: 1 }), arc(house[2][0], house[2][1], 26, 0, 143, { color: C.yellow, width: 1 }), text(house[2][0] + 10, house[2][1] - 30, '143°', { size: 12, color: C.yellow, font: MONO })],
          add: [seg(house[2], house[3]), text(house[3][0] + 10, house[3][1] - 2, '@100<143', { size: 11, color: C.gray, font: MONO })],
        },
        { prompt: '指定下一点或 [闭合(C)/放弃(U)]:', input: '@100<217', tip: '217° 指向左下方，屋顶另一侧画好了', dur: 2, add: [seg(house[3], house[4])] },
        { prompt: '指定下一点或 [闭合(C)/放弃(U)]:', input: 'C', tip: '输入 C 回车：回到起点，闭合图形', dur: 2.5, add: [seg(house[4], house[0])] },
      ],
    },
    3: {
      points: ['圆心、半径：最常用', '两点(2P)：两点连线是直径', '切点、切点、半径(T)：画相切圆'],
      steps: [
        { cmd: 'CIRCLE', prompt: '指定圆的圆心或 [三点(3P)/两点(2P)/切点、切点、半径(T)]:', input: '', tip: '圆心、半径：最常用的画圆方式', dur: 1.5, temp: [marker(120, 130, 'point')] },
        { prompt: '指定圆的半径或 [直径(D)]:', input: '60', tip: '输入半径 60 回车；输入 D 可改为直径', dur: 2.5, temp: [line(120, 130, 180, 130, { color: C.gray, dash: DASH.fine, width: 1 })], add: [circle(120, 130, 60), line(114, 130, 126, 130, { color: C.gray, width: 1 }), line(120, 124, 120, 136, { color: C.gray, width: 1 })] },
        { cmd: 'CIRCLE', prompt: '指定圆的圆心或 [三点(3P)/两点(2P)/切点、切点、半径(T)]:', input: '2P', tip: '两点(2P)：两点连线就是圆的直径', dur: 3, temp: [marker(212, 200, 'point'), marker(292, 200, 'point')], add: [path_(arcPoints(252, 200, 40, 180, 540))] },
        { cmd: 'LINE', prompt: '指定第一个点:', input: '', tip: '先画两条相交的直线作为相切对象', dur: 2, add: [line(...ttr.vertex, 600, ttr.vertex[1]), line(...ttr.vertex, ...ttr.other)] },
        { cmd: 'CIRCLE', prompt: '指定圆的半径:', input: 'T  →  30', tip: '切点、切点、半径(T)：依次点两条线，再输入半径 30', dur: 3.5, temp: [marker(...ttr.t1, 'tangent', '递延切点'), marker(...ttr.t2, 'tangent', '递延切点')], add: [circle(ttr.center[0], ttr.center[1], 30, { color: C.cyan })] },
        { cmd: 'ARC', prompt: '指定圆弧的起点或 [圆心(C)]:', input: '三点', tip: 'ARC 默认三点画弧：起点、第二点、端点', dur: 3, temp: arc3.points.map((p) => marker(p[0], p[1], 'point')), add: [arc(arc3.cx, arc3.cy, arc3.r, arc3.from < arc3.to ? arc3.from + 360 : arc3.from, arc3.to, { color: C.yellow })] },
      ],
    },
    4: {
      points: ['矩形第二角点输入 @长,宽', '圆角(F)选项：四角一次倒圆', '内接(I)按外接圆半径，外切(C)按对边距离'],
      steps: [
        { cmd: 'RECTANG', prompt: '指定第一个角点或 [倒角(C)/标高(E)/圆角(F)/厚度(T)/宽度(W)]:', input: '', tip: 'RECTANG：先点第一个角点', dur: 1.5, temp: [marker(40, 58, 'point')] },
        { prompt: '指定另一个角点或 [面积(A)/尺寸(D)/旋转(R)]:', input: '@160,100', tip: '第二角点用相对坐标 @长,宽，得到精确的 160×100 矩形', dur: 3, add: [rect(40, 58, 160, 100), dimH(40, 58, 200, 58, 46, '160'), dimV(58, 200, 158, 200, 216, '100')] },
        {
          cmd: 'RECTANG',
          prompt: '指定矩形的圆角半径 <0.0000>:',
          input: 'F  →  10',
          tip: '圆角(F)选项：输入半径 10，四个角一次倒圆',
          dur: 3.5,
          add: [
            path_([...arcPoints(190, 190, 10, 90, 0), ...arcPoints(190, 238, 10, 0, -90), ...arcPoints(50, 238, 10, 270, 180), ...arcPoints(50, 190, 10, 180, 90), [190, 180]]),
          ],
        },
        { cmd: 'POLYGON', prompt: '输入选项 [内接于圆(I)/外切于圆(C)] <I>:', input: '5  →  I', tip: '正五边形，内接于圆(I)：顶点落在半径 55 的圆上', dur: 3.5, add: [circle(340, 140, 55, { color: C.dim, dash: DASH.fine, width: 1 }), closed(polygonPoints(340, 140, 55, 5, 90), { color: C.cyan })] },
        { cmd: 'POLYGON', prompt: '输入选项 [内接于圆(I)/外切于圆(C)] <I>:', input: '6  →  C', tip: '正六边形，外切于圆(C)：边与圆相切，螺母按对边距离画选它', dur: 3.5, add: [circle(510, 140, 50, { color: C.dim, dash: DASH.fine, width: 1 }), closed(polygonPoints(510, 140, 50 / Math.cos(rad(30)), 6, 0), { color: C.yellow })] },
      ],
    },
    5: {
      points: ['F3 对象捕捉：端点、中点、圆心、交点', 'F10 极轴追踪，增量角 30°', '沿追踪线直接输入长度'],
      base: [rect(80, 70, 200, 130), circle(450, 140, 55)],
      steps: [
        { cmd: '', prompt: '<对象捕捉 开>', input: '', tip: '按 F3 打开对象捕捉，在设置中勾选常用的捕捉点', dur: 2.5, temp: [panel(330, 46, 220, '对象捕捉', [{ text: '✓ 端点' }, { text: '✓ 中点' }, { text: '✓ 圆心' }, { text: '✓ 交点' }, { text: '✓ 象限点' }])] },
        { cmd: 'LINE', prompt: '指定第一个点:', input: '', tip: '光标靠近端点出现方框标记，单击即准确连上', dur: 2.5, temp: [marker(280, 70, 'endpoint', '端点')] },
        { prompt: '指定下一点或 [放弃(U)]:', input: '', tip: '移到圆周上稍停，出现圆心标记后单击', dur: 2.5, temp: [marker(450, 140, 'center', '圆心')], add: [line(280, 70, 450, 140, { color: C.cyan })] },
        { cmd: 'LINE', prompt: '指定第一个点:', input: '', tip: '中点是三角形标记，象限点是菱形标记', dur: 3, temp: [marker(180, 200, 'midpoint', '中点'), marker(450, 195, 'quadrant', '象限点')], add: [line(180, 200, 450, 195, { color: C.cyan })] },
        { cmd: '', prompt: '<极轴 开>  增量角 = 30', input: '', tip: '按 F10 打开极轴追踪，增量角设为 30°', dur: 2 },
        {
          cmd: 'LINE',
          prompt: '指定下一点或 [放弃(U)]:',
          input: '120',
          tip: '沿 30° 追踪虚线移动光标，直接输入长度 120 回车',
          dur: 3.5,
          temp: [marker(80, 200, 'endpoint', '端点'), line(80, 200, 80 + 220 * Math.cos(rad(30)), 200 - 220 * Math.sin(rad(30)), { color: C.green, dash: DASH.fine, width: 1 }), tooltip(80 + 120 * Math.cos(rad(30)) + 14, 200 - 120 * Math.sin(rad(30)) + 22, '极轴: 120.00 < 30°')],
          add: [line(80, 200, 80 + 120 * Math.cos(rad(30)), 200 - 120 * Math.sin(rad(30)), { color: C.yellow })],
        },
      ],
    },
    6: {
      points: ['OFFSET：先输距离，再点偏移的一侧', 'TRIM 快速模式：直接点要剪掉的段', 'EXTEND：延伸到最近的边界'],
      base: [rect(60, 50, 280, 190, { id: 'outer' }), line(100, 150, 170, 150, { id: 'short' })],
      steps: [
        { cmd: 'OFFSET', prompt: '指定偏移距离或 [通过(T)/删除(E)/图层(L)] <通过>:', input: '20', tip: 'OFFSET：先输入偏移距离 20', dur: 2.5 },
        { prompt: '指定要偏移的那一侧上的点:', input: '', tip: '选中外框，再在内侧单击：平行复制出内框', dur: 2.5, temp: [marker(200, 120, 'point')], add: [rect(80, 70, 240, 150, { color: C.cyan })] },
        { cmd: 'LINE', prompt: '指定第一个点:', input: '', tip: '画一条竖线，两端超出外框', dur: 2, add: [line(240, 30, 240, 258, { id: 'cross' })] },
        {
          cmd: 'TRIM',
          prompt: '选择要修剪的对象或 [剪切边(T)/栏选(F)/窗交(C)]:',
          input: '',
          tip: '快速模式：不用选边界，直接单击要剪掉的那一段',
          dur: 3.5,
          remove: ['cross'],
          swapAt: 0.85,
          temp: [line(240, 30, 240, 50, { color: C.red, width: 2.4 }), line(240, 240, 240, 258, { color: C.red, width: 2.4 })],
          add: [line(240, 50, 240, 240, { instant: true })],
        },
        { cmd: 'EXTEND', prompt: '选择要延伸的对象:', input: '', tip: 'EXTEND：单击短线靠近边界的一端，它会伸到竖线为止', dur: 3, temp: [marker(170, 150, 'endpoint', '端点')], add: [line(170, 150, 240, 150, { color: C.yellow })] },
      ],
    },
    7: {
      points: ['先选对象，再指定基点', 'ROTATE 的复制(C)选项保留原对象', 'MIRRTEXT=0：镜像后文字不反写'],
      base: [rect(220, 90, 160, 120, { color: C.white }), chair(120, 102, 'left', { id: 'chair0' })],
      steps: [
        { cmd: 'MOVE', prompt: '指定第二个点或 <使用第一个点作为位移>:', input: '@54,0', tip: 'MOVE：选中椅子，基点后输入 @54,0 移到桌边', dur: 3.5, remove: ['chair0'], swapAt: 0.9, temp: [windowBox(104, 94, 160, 146), line(136, 120, 190, 120, { color: C.gray, dash: DASH.fine, width: 1 })], add: [chair(174, 102, 'left', { color: C.cyan })] },
        { cmd: 'COPY', prompt: '指定第二个点或 [阵列(A)] <使用第一个点作为位移>:', input: '@0,60', tip: 'COPY：同样先选对象和基点，复制一把到下方 60 处', dur: 3, temp: [line(190, 120, 190, 180, { color: C.gray, dash: DASH.fine, width: 1 })], add: [chair(174, 162, 'left')] },
        { cmd: 'ROTATE', prompt: '指定旋转角度，或 [复制(C)/参照(R)] <0>:', input: 'C  →  -90', tip: 'ROTATE 选复制(C)，输入 -90：顺时针转出桌子上方的椅子', dur: 3.5, temp: [arc(300, 150, 70, 160, 100, { color: C.yellow, dash: DASH.fine, width: 1 }), marker(300, 150, 'point')], add: [chair(282, 48, 'top')] },
        {
          cmd: 'MIRROR',
          prompt: '要删除源对象吗？[是(Y)/否(N)] <否>:',
          input: 'N',
          tip: 'MIRROR：以桌子中线为镜像线，对称复制出另一侧',
          dur: 4,
          temp: [line(300, 36, 300, 254, { color: C.red, dash: DASH.center, width: 1.2 })],
          add: [chair(394, 102, 'right'), chair(394, 162, 'right')],
        },
      ],
    },
    8: {
      points: ['ARRAYRECT：行数、列数、间距', 'ARRAYPOLAR：中心点 + 项目数', '阵列是关联整体，可整体修改'],
      base: [rect(60, 70, 18, 18, { color: C.white, fill: '#59636f' })],
      steps: [
        { cmd: 'ARRAYRECT', prompt: '选择对象:', input: '', tip: 'ARRAYRECT：选中左上角的柱子', dur: 2, temp: [windowBox(50, 60, 88, 98)] },
        {
          cmd: '',
          prompt: '选择夹点以编辑阵列或 [列数(COL)/行数(R)/间距(S)]:',
          input: 'COL 4  R 3',
          tip: '设为 3 行 4 列，列距 70、行距 70：柱网一次排好',
          dur: 4,
          add: [0, 1, 2].flatMap((row) => [0, 1, 2, 3].filter((col) => row + col > 0).map((col) => rect(60 + col * 70, 70 + row * 70, 18, 18, { color: C.white, fill: '#59636f' }))),
        },
        { cmd: 'CIRCLE', prompt: '指定圆的半径或 [直径(D)]:', input: '80', tip: '画法兰：外圆、中心孔、螺栓孔中心圆和第一个孔', dur: 2.5, add: [circle(480, 150, 80), circle(480, 150, 26), circle(480, 150, 58, { color: C.red, dash: DASH.center, width: 1 }), circle(480, 92, 9, { color: C.cyan })] },
        { cmd: 'ARRAYPOLAR', prompt: '指定阵列的中心点或 [基点(B)/旋转轴(A)]:', input: '项目数 8', tip: 'ARRAYPOLAR：捕捉法兰圆心，项目数 8，填充角度 360°', dur: 4, temp: [marker(480, 150, 'center', '圆心')], add: [1, 2, 3, 4, 5, 6, 7].map((index) => circle(480 + 58 * Math.cos(rad(90 + index * 45)), 150 - 58 * Math.sin(rad(90 + index * 45)), 9, { color: C.cyan })) },
      ],
    },
    9: {
      points: ['图层分开管理颜色、线型、线宽', '画之前先把图层置为当前', 'LAYISO 隔离检查一类对象'],
      steps: [
        {
          cmd: 'LAYER',
          prompt: '图层特性管理器',
          input: '',
          tip: '新建图层，分别设置颜色、线型和线宽',
          dur: 5,
          temp: [
            panel(110, 48, 420, '图层特性管理器', [
              { text: '0            白    Continuous   默认', swatch: C.white },
              { text: '轴线         红    CENTER       0.13', swatch: C.red },
              { text: '墙体         白    Continuous   0.50', swatch: C.white, hl: true },
              { text: '门窗         青    Continuous   0.25', swatch: C.cyan },
              { text: '标注         绿    Continuous   0.18', swatch: C.green },
            ]),
          ],
        },
        {
          cmd: 'LINE',
          prompt: '当前图层: 轴线  指定第一个点:',
          input: '',
          tip: '“轴线”置为当前：画出的线自动是红色点划线',
          dur: 3.5,
          add: [...[120, 280, 440].map((x) => line(x, 52, x, 246, { color: C.red, dash: DASH.center, width: 1 })), ...[84, 214].map((y) => line(92, y, 470, y, { color: C.red, dash: DASH.center, width: 1 }))],
        },
        {
          cmd: 'RECTANG',
          prompt: '当前图层: 墙体  指定第一个角点:',
          input: '',
          tip: '切换到“墙体”层，线宽 0.50 的墙线更醒目',
          dur: 3.5,
          add: [rect(114, 78, 332, 142, { width: 2.6 }), rect(126, 90, 308, 118, { width: 2.6 }), line(274, 90, 274, 208, { width: 2.6 }), line(286, 90, 286, 208, { width: 2.6 })],
        },
        {
          cmd: 'LAYISO',
          prompt: '选择要隔离的图层上的对象:',
          input: '',
          tip: 'LAYISO 隔离：只突出所选对象的图层，其余图层淡显',
          dur: 3,
          temp: [cover(0, TOP, W, CMD_TOP - TOP, { opacity: 0.72 }), rect(114, 78, 332, 142, { width: 2.6, instant: true }), rect(126, 90, 308, 118, { width: 2.6, instant: true }), line(274, 90, 274, 208, { width: 2.6, instant: true }), line(286, 90, 286, 208, { width: 2.6, instant: true })],
        },
      ],
    },
    10: {
      points: ['CENTER 点划线画轴线，DASHED 虚线画不可见轮廓', '虚线显示成实线：调 LTSCALE', '线宽 0.50/0.25，打开 LWDISPLAY 查看'],
      steps: [
        {
          cmd: 'LINETYPE',
          prompt: '线型管理器  加载:',
          input: 'CENTER, DASHED',
          tip: '加载 CENTER 点划线和 DASHED 虚线',
          dur: 3.5,
          temp: [panel(150, 52, 340, '线型管理器', [{ text: 'Continuous   ———————  实线' }, { text: 'CENTER       —— · —— · ——', hl: true }, { text: 'DASHED       — — — — — —', hl: true }, { text: 'HIDDEN       - - - - - - - -' }])],
        },
        {
          cmd: 'LINE',
          prompt: '指定第一个点:',
          input: '',
          tip: '轴线用点划线，被挡住的孔用虚线表示',
          dur: 3.5,
          add: [
            rect(100, 80, 240, 120, { id: 'outline' }),
            line(80, 140, 360, 140, { color: C.red, dash: '24 6 4 6', width: 1, id: 'axis' }),
            line(190, 80, 190, 200, { color: C.yellow, dash: '14 7', width: 1, id: 'h1' }),
            line(250, 80, 250, 200, { color: C.yellow, dash: '14 7', width: 1, id: 'h2' }),
          ],
        },
        {
          cmd: 'LTSCALE',
          prompt: '输入新线型比例因子 <1.0000>:',
          input: '0.5',
          tip: '虚线太稀或显示成实线时，调整全局比例 LTSCALE',
          dur: 3,
          remove: ['axis', 'h1', 'h2'],
          swapAt: 0.45,
          add: [line(80, 140, 360, 140, { color: C.red, dash: '12 3 2 3', width: 1, instant: true, id: 'axis2' }), line(190, 80, 190, 200, { color: C.yellow, dash: '7 4', width: 1, instant: true }), line(250, 80, 250, 200, { color: C.yellow, dash: '7 4', width: 1, instant: true })],
        },
        {
          cmd: 'LWDISPLAY',
          prompt: '输入 LWDISPLAY 的新值 <0>:',
          input: '1',
          tip: '打开线宽显示：轮廓线 0.50 粗，其余 0.25 细',
          dur: 3,
          remove: ['outline'],
          swapAt: 0.45,
          add: [rect(100, 80, 240, 120, { width: 3.2, instant: true }), panel(400, 70, 200, '线宽', [{ text: '轮廓线   0.50 mm' }, { text: '轴线     0.25 mm' }, { text: '虚线     0.25 mm' }], { instant: true })],
        },
      ],
    },
    11: {
      points: ['工程字：gbenor.shx + gbcbig.shx', 'DTEXT 单行、MTEXT 多行', '标题居中，说明左对齐'],
      steps: [
        {
          cmd: 'STYLE',
          prompt: '文字样式  新建:',
          input: '工程字',
          tip: 'SHX 字体 gbenor.shx 配大字体 gbcbig.shx：国标工程字，不出问号',
          dur: 4,
          temp: [panel(150, 50, 340, '文字样式', [{ text: '样式名：工程字', hl: true }, { text: 'SHX 字体：gbenor.shx' }, { text: '✓ 使用大字体：gbcbig.shx' }, { text: '高度：0（书写时再指定）' }, { text: '宽度因子：0.7' }])],
        },
        { cmd: 'DTEXT', prompt: '指定高度 <2.5000>:', input: '7', tip: 'DTEXT 单行文字：每一行都是独立的对象', dur: 3, add: [text(80, 76, '技术要求', { size: 24, color: C.white, id: 'title' })] },
        {
          cmd: 'MTEXT',
          prompt: '指定对角点或 [高度(H)/对正(J)/行距(L)]:',
          input: '',
          tip: 'MTEXT 多行文字：先框出范围，再连续输入多行',
          dur: 5,
          temp: [rect(72, 96, 360, 120, { color: C.gray, dash: DASH.fine, width: 1 })],
          add: [text(84, 126, '1. 未注圆角均为 R2。', { size: 16 }), text(84, 154, '2. 锐边倒钝，去除毛刺。', { size: 16 }), text(84, 182, '3. 表面涂防锈底漆一道。', { size: 16 })],
        },
        { cmd: 'JUSTIFYTEXT', prompt: '[左对齐(L)/居中(C)/右对齐(R)] <左对齐>:', input: 'C', tip: '对齐方式：标题居中，说明保持左对齐', dur: 3, remove: ['title'], swapAt: 0.45, add: [text(252, 76, '技术要求', { size: 24, anchor: 'middle', instant: true })], temp: [line(252, 40, 252, 230, { color: C.gray, dash: DASH.fine, width: 1 })] },
      ],
    },
    12: {
      points: ['先在 DIMSTYLE 设好文字、箭头和比例', 'DIMCONTINUE 一次标完孔距', '直径 %%c 显示为 Ø'],
      base: [
        path_([[90, 90], [355, 90], ...arcPoints(355, 105, 15, 90, 0), [370, 220], [90, 220], [90, 90]]),
        ...[160, 240, 320].flatMap((x) => [circle(x, 155, 15, { color: C.white }), line(x - 22, 155, x + 22, 155, { color: C.red, dash: '8 3 2 3', width: 0.8 }), line(x, 133, x, 177, { color: C.red, dash: '8 3 2 3', width: 0.8 })]),
      ],
      steps: [
        { cmd: 'DIMSTYLE', prompt: '标注样式管理器  修改:', input: 'ISO-25', tip: '先设标注样式：文字高度、箭头大小、全局比例', dur: 3, temp: [panel(180, 60, 280, '修改标注样式: ISO-25', [{ text: '文字高度：3.5' }, { text: '箭头大小：2.5' }, { text: '全局比例：1' }, { text: '精度：0' }])] },
        { cmd: 'DIMLINEAR', prompt: '指定尺寸线位置:', input: '', tip: 'DIMLINEAR：点两个端点，再拖出尺寸线的位置', dur: 3.5, add: [dimH(90, 90, 370, 105, 62, '280'), dimV(90, 90, 220, 90, 60, '130')] },
        { cmd: 'DIMCONTINUE', prompt: '指定第二个尺寸界线原点或 [放弃(U)/选择(S)]:', input: '', tip: 'DIMCONTINUE：接着上一个尺寸连续标，孔距一次标完', dur: 3.5, add: [dimH(90, 220, 160, 170, 246, '70'), dimH(160, 170, 240, 170, 246, '80'), dimH(240, 170, 320, 170, 246, '80')] },
        { cmd: 'DIMDIAMETER', prompt: '指定尺寸线位置或 [多行文字(M)/文字(T)/角度(A)]:', input: '', tip: '直径标注自动加 Ø；在文字里输入 %%c 也能打出 Ø', dur: 3.5, add: [dimCircle(160, 155, 15, 45, 'Ø30', true), dimCircle(355, 105, 15, 45, 'R15', false)] },
      ],
    },
    13: {
      points: ['拾取内部点自动找闭合边界', 'ANSI31 剖面线，ANSI37 网格', '边界有缺口：接好端点或调 HPGAPTOL'],
      base: [closed([[80, 70], [260, 70], [260, 120], [160, 120], [160, 230], [80, 230]], { id: 'a' }), rect(310, 70, 190, 160)],
      steps: [
        { cmd: 'HATCH', prompt: '拾取内部点或 [选择对象(S)/设置(T)]:', input: 'T', tip: '图案选 ANSI31（45° 剖面线），比例 1', dur: 2.5, temp: [panel(330, 60, 240, '图案填充和渐变色', [{ text: '图案：ANSI31', hl: true }, { text: '角度：0' }, { text: '比例：1' }, { text: '✓ 关联' }])] },
        { prompt: '拾取内部点或 [选择对象(S)/删除边界(B)]:', input: '', tip: '在区域里单击一点：自动找到闭合边界并填充', dur: 3, temp: [marker(118, 180, 'point'), closed([[80, 70], [260, 70], [260, 120], [160, 120], [160, 230], [80, 230]], { color: C.blue, dash: DASH.dashed, width: 2 })], add: [hatch([[80, 70], [260, 70], [260, 120], [160, 120], [160, 230], [80, 230]], { gap: 8, id: 'h1' })] },
        { cmd: 'HATCH', prompt: '拾取内部点或 [选择对象(S)/设置(T)]:', input: '', tip: '另一块区域用 ANSI37 网格，表示不同的材料', dur: 3, temp: [marker(400, 150, 'point')], add: [hatch([[310, 70], [500, 70], [500, 230], [310, 230]], { gap: 11, cross: true, color: C.green })] },
        { cmd: 'HATCHEDIT', prompt: '图案填充比例 <1.0000>:', input: '2', tip: '剖面线太密或太疏：修改“比例”即可', dur: 3, remove: ['h1'], swapAt: 0.45, add: [hatch([[80, 70], [260, 70], [260, 120], [160, 120], [160, 230], [80, 230]], { gap: 16, instant: true })] },
        { cmd: 'HPGAPTOL', prompt: '输入 HPGAPTOL 的新值 <0>:', input: '5', tip: '提示“未找到有效边界”：接好端点，或把间隙公差调大', dur: 3, temp: [panel(170, 96, 300, '图案填充 - 边界定义错误', [{ text: '未找到有效的图案填充边界。' }, { text: '检查端点是否闭合' }, { text: '或设置间隙公差 HPGAPTOL' }])] },
      ],
    },
    14: {
      points: ['ATTDEF 定义属性，BLOCK 一起做成块', 'INSERT 时按提示填写属性值', 'WBLOCK 写出块文件，在别的图里复用'],
      steps: [
        { cmd: 'LINE', prompt: '指定下一点或 [放弃(U)]:', input: '', tip: '先画出标高符号：倒三角和右侧引线', dur: 3, add: [closed([[110, 150], [99, 139], [121, 139]], { width: 1.2 }), line(99, 139, 166, 139, { width: 1.2 })] },
        { cmd: 'ATTDEF', prompt: '指定起点:', input: '', tip: 'ATTDEF 定义属性“标高”：插入块时会提示输入', dur: 3.5, temp: [panel(200, 52, 260, '属性定义', [{ text: '标记：标高', hl: true }, { text: '提示：请输入标高值' }, { text: '默认：±0.000' }, { text: '文字高度：3' }])], add: [text(104, 135, '标高', { size: 12, color: C.yellow })] },
        { cmd: 'BLOCK', prompt: '指定插入基点:', input: '(捕捉三角形尖端)', tip: 'BLOCK：图形和属性一起选中，基点定在三角形尖端', dur: 3, temp: [windowBox(90, 118, 176, 156), marker(110, 150, 'endpoint', '端点'), panel(220, 70, 240, '块定义', [{ text: '名称：标高符号', hl: true }, { text: '基点：三角形尖端' }, { text: '✓ 转换为块' }])] },
        {
          cmd: 'INSERT',
          prompt: '请输入标高值 <±0.000>:',
          input: '3.000',
          tip: 'INSERT：同一个块，插入时填入不同的标高值',
          dur: 5,
          add: [
            line(250, 240, 560, 240, { width: 1.6 }),
            line(260, 170, 480, 170, { color: C.gray, dash: DASH.dashed, width: 1 }),
            line(260, 100, 480, 100, { color: C.gray, dash: DASH.dashed, width: 1 }),
            line(270, 240, 270, 60, { width: 1.2 }),
            line(470, 240, 470, 60, { width: 1.2 }),
            levelMark(510, 240, '±0.000', C.white, { textColor: C.yellow }),
            levelMark(510, 170, '3.000', C.white, { textColor: C.yellow }),
            levelMark(510, 100, '6.000', C.white, { textColor: C.yellow }),
          ],
        },
      ],
    },
    15: {
      points: ['布局中按 1:1 放图框', 'MVIEW 开视口，输入 1/100XP 定比例', '比例定好后锁定视口'],
      base: [rect(180, 70, 280, 150), line(320, 70, 320, 220), line(180, 150, 320, 150), text(230, 116, '卧室', { size: 14 }), text(370, 150, '客厅', { size: 14 })],
      steps: [
        { cmd: 'LAYOUT', prompt: '切换到: 布局1', input: '', tip: '单击“布局1”：白色区域就是一张图纸', dur: 2.5, swapAt: 0.3, add: [cover(0, TOP, W, CMD_TOP - TOP, { fill: '#3b424b' }), cover(90, 40, 460, 220, { fill: '#fbfbf8' })] },
        { cmd: 'INSERT', prompt: '指定插入点:', input: 'A3 图框', tip: '在布局里按 1:1 插入 A3 图框和标题栏', dur: 3, add: [rect(104, 50, 432, 200, { color: C.ink, width: 1.2 }), rect(416, 218, 120, 32, { color: C.ink, width: 1 }), text(476, 238, '户型平面图', { size: 12, color: C.ink, anchor: 'middle' })] },
        { cmd: 'MVIEW', prompt: '指定视口的角点或 [开(ON)/关(OFF)/布满(F)/锁定(L)]:', input: '', tip: 'MVIEW 开一个视口：透过视口看到模型空间的图', dur: 3.5, temp: [windowBox(120, 62, 400, 206)], add: [rect(120, 62, 280, 144, { color: '#2b6cb0', width: 1.2 }), group([rect(200, 100, 100, 54, { color: C.ink, width: 1 }), line(250, 100, 250, 154, { color: C.ink, width: 1 })], { id: 'small' })] },
        {
          cmd: 'ZOOM',
          prompt: '输入比例因子 (nX 或 nXP):',
          input: '1/100xp',
          tip: '视口比例 1:100：在视口里输入 1/100XP',
          dur: 3,
          remove: ['small'],
          swapAt: 0.45,
          add: [group([rect(140, 74, 240, 120, { color: C.ink, width: 1.2 }), line(260, 74, 260, 194, { color: C.ink, width: 1.2 }), line(140, 140, 260, 140, { color: C.ink, width: 1.2 }), text(180, 112, '卧室', { size: 12, color: C.ink }), text(300, 140, '客厅', { size: 12, color: C.ink })], { instant: true }), text(122, 222, '视口比例 1:100', { size: 12, color: '#2b6cb0', instant: true })],
        },
        { cmd: 'MVIEW', prompt: '视口锁定 [开(ON)/关(OFF)]:', input: 'ON', tip: '锁定视口：滚动鼠标只缩放图纸，比例不会被改乱', dur: 2.5, add: [text(300, 222, '已锁定 ✓', { size: 12, color: '#2b6cb0' })] },
      ],
    },
    16: {
      points: ['DWG To PDF.pc3 直接打成 PDF', '打印范围“窗口”框选图框', 'monochrome.ctb 彩色线打成黑色'],
      base: [rect(150, 50, 340, 200, { color: C.white }), rect(400, 222, 90, 28, { color: C.white, width: 1 }), circle(260, 140, 50, { color: C.cyan }), circle(260, 140, 20, { color: C.yellow }), line(190, 140, 330, 140, { color: C.red, dash: '12 3 2 3', width: 1 }), line(260, 80, 260, 200, { color: C.red, dash: '12 3 2 3', width: 1 }), dimH(210, 140, 310, 140, 74, 'Ø100')],
      steps: [
        {
          cmd: 'PLOT',
          prompt: '打印 - 模型',
          input: '',
          tip: '打印机选 DWG To PDF.pc3，图纸 ISO A3，布满图纸、居中打印',
          dur: 5,
          temp: [
            panel(120, 40, 400, '打印 - 模型', [
              { text: '打印机/绘图仪：DWG To PDF.pc3', hl: true },
              { text: '图纸尺寸：ISO A3 (420.00 x 297.00 毫米)' },
              { text: '打印范围：窗口' },
              { text: '✓ 布满图纸        ✓ 居中打印' },
              { text: '打印样式表：monochrome.ctb' },
              { text: '图形方向：横向' },
            ]),
          ],
        },
        { cmd: '', prompt: '指定打印窗口  指定第一个角点:', input: '', tip: '打印范围选“窗口”，依次单击图框的两个对角', dur: 3, temp: [windowBox(150, 50, 490, 250), marker(150, 50, 'endpoint', '端点')] },
        {
          cmd: 'PREVIEW',
          prompt: '按 Esc 或 Enter 键退出，或单击鼠标右键显示快捷菜单。',
          input: '',
          tip: 'monochrome.ctb 把彩色线条都打成黑色，先预览再打印',
          dur: 4,
          add: [
            group(
              [
                cover(0, TOP, W, CMD_TOP - TOP, { fill: '#4a515b' }),
                cover(128, 38, 384, 228, { fill: '#ffffff' }),
                rect(150, 50, 340, 200, { color: C.ink, width: 1.2 }),
                rect(400, 222, 90, 28, { color: C.ink, width: 1 }),
                circle(260, 140, 50, { color: C.ink }),
                circle(260, 140, 20, { color: C.ink }),
                line(190, 140, 330, 140, { color: C.ink, dash: '12 3 2 3', width: 0.8 }),
                line(260, 80, 260, 200, { color: C.ink, dash: '12 3 2 3', width: 0.8 }),
                dimH(210, 140, 310, 140, 74, 'Ø100', C.ink),
              ],
              { instant: true },
            ),
          ],
        },
      ],
    },
    17: {
      points: ['EXPORTPDF 输出当前布局', 'PNGOUT / JPGOUT 存图片', '批量转换用迅捷CAD转换器，300 DPI 以上'],
      base: [rect(90, 60, 220, 150), circle(200, 135, 40, { color: C.cyan }), line(90, 135, 310, 135, { color: C.red, dash: '12 3 2 3', width: 1 }), hatch([[90, 60], [130, 60], [130, 210], [90, 210]], { gap: 9 })],
      steps: [
        { cmd: 'EXPORTPDF', prompt: '另存为 PDF  文件名:', input: '支座零件图.pdf', tip: 'EXPORTPDF：把当前布局直接输出为 PDF 文件', dur: 3.5, temp: [panel(330, 56, 280, '另存为 PDF', [{ text: '输出：当前布局' }, { text: '页面设置：A3 横向' }, { text: '质量：矢量', hl: true }])] },
        { cmd: 'PNGOUT', prompt: '选择对象或 <全部对象和视口>:', input: '', tip: 'PNGOUT / JPGOUT：把当前视图保存成图片', dur: 2.5, temp: [windowBox(80, 50, 320, 220)] },
        {
          cmd: '',
          prompt: '迅捷CAD转换器 → CAD转PDF  添加文件:',
          input: '4 个文件',
          tip: '图纸多时，用迅捷CAD转换器批量添加，一次全部转换',
          dur: 5,
          temp: [
            panel(150, 44, 440, '迅捷CAD转换器 - CAD转PDF', [
              { text: '一层平面图.dwg', bar: 1 },
              { text: '二层平面图.dwg', bar: 0.8 },
              { text: '南立面图.dwg', bar: 0.55 },
              { text: '节点详图.dwg', bar: 0.3 },
              { text: '输出格式：PDF      输出目录：原文件夹' },
            ]),
          ],
        },
        { cmd: '', prompt: 'CAD转图片  输出设置:', input: 'JPG  300 DPI', tip: '转图片时分辨率选 300 DPI 以上，细线和小字才清楚', dur: 3, temp: [panel(200, 60, 320, 'CAD转图片 - 输出设置', [{ text: '输出格式：JPG' }, { text: '背景颜色：白色' }, { text: '分辨率：300 DPI', hl: true }, { text: '颜色：彩色' }])] },
      ],
    },
    18: {
      points: ['高版本 DWG 低版本打不开', '另存为选 AutoCAD 2004/2007 格式', '整个文件夹用转换器批量转'],
      base: [rect(110, 60, 200, 150), line(210, 60, 210, 210), line(110, 130, 210, 130), arc(210, 160, 30, 180, 270, { color: C.cyan }), line(180, 160, 210, 160, { color: C.cyan })],
      steps: [
        { cmd: 'OPEN', prompt: '选择文件:', input: '住宅楼施工图.dwg', tip: '高版本保存的 DWG，在低版本软件里打不开', dur: 3.5, temp: [panel(160, 80, 340, '打开图形 - 错误', [{ text: '无法打开：住宅楼施工图.dwg' }, { text: '图形文件无效，或由更高版本创建' }, { text: '（AutoCAD 2018 格式）' }])] },
        {
          cmd: 'SAVEAS',
          prompt: '图形另存为  文件类型:',
          input: 'AutoCAD 2004',
          tip: '另存为 AutoCAD 2004 格式，几乎所有软件都能打开',
          dur: 4,
          temp: [
            panel(160, 46, 330, '图形另存为 - 文件类型', [
              { text: 'AutoCAD 2018 图形 (*.dwg)' },
              { text: 'AutoCAD 2013/LT2013 图形 (*.dwg)' },
              { text: 'AutoCAD 2010/LT2010 图形 (*.dwg)' },
              { text: 'AutoCAD 2007/LT2007 图形 (*.dwg)' },
              { text: 'AutoCAD 2004/LT2004 图形 (*.dwg)', hl: true },
              { text: 'AutoCAD 2000/LT2000 图形 (*.dwg)' },
            ]),
          ],
        },
        {
          cmd: '',
          prompt: '迅捷CAD转换器 → CAD版本转换  添加文件夹:',
          input: '施工图',
          tip: '整个文件夹的图纸，用转换器批量转为 2007 版本',
          dur: 5,
          temp: [
            panel(150, 44, 440, '迅捷CAD转换器 - CAD版本转换', [
              { text: '建筑总平面图.dwg', bar: 1 },
              { text: '一层平面图.dwg', bar: 1 },
              { text: '二层平面图.dwg', bar: 0.7 },
              { text: '结构说明.dwg', bar: 0.4 },
              { text: '输出版本：AutoCAD 2007   格式：DWG' },
            ]),
          ],
        },
      ],
    },
    19: {
      points: ['长对正、高平齐、宽相等', '构造线 XLINE 作投影辅助线', '看不见的轮廓画虚线，最后删辅助线'],
      steps: [
        {
          cmd: 'RECTANG',
          prompt: '指定第一个角点:',
          input: '',
          tip: '先画最能反映形状特征的主视图',
          dur: 3.5,
          add: [
            rect(front.x, front.y, front.w, front.h),
            line(front.x, front.y + front.h - front.base, front.x + front.w, front.y + front.h - front.base),
            circle(front.hole[0], front.hole[1], front.r),
            line(front.hole[0] - 16, front.hole[1], front.hole[0] + 16, front.hole[1], { color: C.red, dash: '8 3 2 3', width: 0.8 }),
            line(front.hole[0], front.hole[1] - 16, front.hole[0], front.hole[1] + 16, { color: C.red, dash: '8 3 2 3', width: 0.8 }),
          ],
        },
        {
          cmd: 'XLINE',
          prompt: '指定点或 [水平(H)/垂直(V)/角度(A)/二等分(B)/偏移(O)]:',
          input: 'V',
          tip: '构造线 XLINE 作投影线：主俯视图长对正，主左视图高平齐',
          dur: 3,
          add: [
            ...[front.x, front.hole[0] - front.r, front.hole[0] + front.r, front.x + front.w].map((x) => line(x, 36, x, 256, { color: C.dim, dash: DASH.fine, width: 0.8, id: `xv${x}` })),
            ...[front.y, front.hole[1] - front.r, front.hole[1] + front.r, front.y + front.h - front.base, front.y + front.h].map((y) => line(40, y, 360, y, { color: C.dim, dash: DASH.fine, width: 0.8, id: `xh${y}` })),
          ],
        },
        {
          cmd: 'LINE',
          prompt: '指定下一点或 [放弃(U)]:',
          input: '',
          tip: '俯视图与主视图长对正；孔被挡住，画成虚线',
          dur: 3,
          add: [
            rect(front.x, topView.y, front.w, topView.d),
            line(front.x, topView.y + topView.wall, front.x + front.w, topView.y + topView.wall),
            line(front.hole[0] - front.r, topView.y, front.hole[0] - front.r, topView.y + topView.wall, { color: C.yellow, dash: DASH.hidden, width: 1 }),
            line(front.hole[0] + front.r, topView.y, front.hole[0] + front.r, topView.y + topView.wall, { color: C.yellow, dash: DASH.hidden, width: 1 }),
          ],
        },
        {
          cmd: 'LINE',
          prompt: '指定下一点或 [放弃(U)]:',
          input: '',
          tip: '45° 斜线把俯视图的宽度转到左视图：宽相等',
          dur: 4,
          add: [
            line(236, 146, 324, 234, { color: C.dim, width: 0.8, id: 'miter' }),
            ...[0, topView.wall, topView.d].map((depth) => poly([[front.x + front.w, topView.y + depth], [leftView.x + depth, topView.y + depth], [leftView.x + depth, front.y + front.h]], { color: C.dim, dash: DASH.fine, width: 0.8, id: `proj${depth}` })),
            closed([[leftView.x, front.y], [leftView.x + topView.wall, front.y], [leftView.x + topView.wall, front.y + front.h - front.base], [leftView.x + topView.d, front.y + front.h - front.base], [leftView.x + topView.d, front.y + front.h], [leftView.x, front.y + front.h]]),
            line(leftView.x, front.hole[1] - front.r, leftView.x + topView.wall, front.hole[1] - front.r, { color: C.yellow, dash: DASH.hidden, width: 1 }),
            line(leftView.x, front.hole[1] + front.r, leftView.x + topView.wall, front.hole[1] + front.r, { color: C.yellow, dash: DASH.hidden, width: 1 }),
          ],
        },
        {
          cmd: 'ERASE',
          prompt: '选择对象:',
          input: '(选择全部辅助线)',
          tip: '删除构造线和 45° 斜线，三视图完成',
          dur: 2.5,
          remove: [
            ...[front.x, front.hole[0] - front.r, front.hole[0] + front.r, front.x + front.w].map((x) => `xv${x}`),
            ...[front.y, front.hole[1] - front.r, front.hole[1] + front.r, front.y + front.h - front.base, front.y + front.h].map((y) => `xh${y}`),
            'miter',
            ...[0, topView.wall, topView.d].map((depth) => `proj${depth}`),
          ],
          swapAt: 0.6,
        },
      ],
    },
    20: {
      points: ['轴网 → 墙 → 门窗 → 文字 → 标注', 'MLINE 比例 240、对正“无”画墙', '门窗、文字、标注各放各的图层'],
      steps: [
        {
          cmd: 'LINE',
          prompt: '当前图层: 轴线  指定第一个点:',
          input: '',
          tip: '先画轴网：轴线放在“轴线”层，用 CENTER 点划线',
          dur: 2.5,
          add: [...axesX.map((x) => line(x, 50, x, 262, { color: C.red, dash: DASH.center, width: 0.9 })), ...axesY.map((y) => line(176, y, 456, y, { color: C.red, dash: DASH.center, width: 0.9 }))],
        },
        {
          cmd: 'MLINE',
          prompt: '当前设置: 对正 = 无，比例 = 240.00，样式 = STANDARD',
          input: '',
          tip: 'MLINE 比例 240、对正“无”：墙线沿轴线两侧各 120',
          dur: 4,
          add: [
            rect(axesX[0] - WALL, axesY[0] - WALL, axesX[3] - axesX[0] + 2 * WALL, axesY[2] - axesY[0] + 2 * WALL, { width: 1.6 }),
            ...rooms.map(([x1, y1, x2, y2]) => rect(x1 + WALL, y1 + WALL, x2 - x1 - 2 * WALL, y2 - y1 - 2 * WALL, { width: 1.6 })),
          ],
        },
        {
          cmd: 'INSERT',
          prompt: '指定插入点或 [基点(B)/比例(S)/旋转(R)]:',
          input: '门 M0921',
          tip: '开门洞，插入门块：门扇线加 90° 开启弧线',
          dur: 3.5,
          add: [doorH(247, axesY[1], 1), doorH(337, axesY[1], 1), doorV(axesX[2], 124, 1), doorV(axesX[2], 221, 1), doorH(330, axesY[2], -1, 25)],
        },
        {
          cmd: 'LINE',
          prompt: '当前图层: 门窗  指定第一个点:',
          input: '',
          tip: '窗用四条细线表示，放在青色的“门窗”层',
          dur: 2.5,
          add: [windowH(214, 268, axesY[0]), windowH(300, 356, axesY[0]), windowH(392, 414, axesY[0]), windowH(214, 290, axesY[2])],
        },
        {
          cmd: 'DTEXT',
          prompt: '指定文字的起点或 [对正(J)/样式(S)]:',
          input: '',
          tip: '写上房间名称和使用面积',
          dur: 2.5,
          add: rooms.flatMap(([x1, y1, x2, y2], index) => [
            text((x1 + x2) / 2, (y1 + y2) / 2 - 2, ROOM_NAMES[index][0], { size: 13, anchor: 'middle' }),
            text((x1 + x2) / 2, (y1 + y2) / 2 + 14, ROOM_NAMES[index][1], { size: 10, anchor: 'middle', color: C.gray }),
          ]),
        },
        {
          cmd: 'DIMCONTINUE',
          prompt: '指定第二个尺寸界线原点或 [放弃(U)/选择(S)]:',
          input: '',
          tip: '最后标注开间和进深，连续标注一次完成',
          dur: 3,
          add: [
            dimH(axesX[0], 56, axesX[1], 56, 42, '3300'),
            dimH(axesX[1], 56, axesX[2], 56, 42, '3600'),
            dimH(axesX[2], 56, axesX[3], 56, 42, '2400'),
            dimV(axesY[0], 194, axesY[1], 194, 170, '3600'),
            dimV(axesY[1], 194, axesY[2], 194, 170, '3900'),
          ],
        },
      ],
    },
  };
}

// ---------------------------------------------------------------- rendering

function textWidth(value, size) {
  let width = 0;
  for (const character of String(value)) width += character.codePointAt(0) > 0x2e80 ? size : size * 0.6;
  return width;
}

function weightOf(entity) {
  switch (entity.type) {
    case 'path':
      return Math.max(30, polyLength(entity.points));
    case 'text':
      return 14 * [...entity.value].length;
    case 'group':
      return entity.parts.reduce((sum, part) => sum + weightOf(part), 0);
    case 'hatch':
      return 220;
    case 'panel':
      return 260;
    default:
      return 60;
  }
}

/** SVG of one entity at drawing progress `f` (0..1), and where the pen is. */
function renderEntity(entity, f, context) {
  if (f <= 0) return { svg: '', head: null };
  switch (entity.type) {
    case 'path': {
      const shown = partial(entity.points, f);
      const attributes = `fill="${f >= 1 && entity.fill ? entity.fill : 'none'}" stroke="${entity.color}" stroke-width="${entity.width}" stroke-linejoin="round" stroke-linecap="round"${entity.dash ? ` stroke-dasharray="${entity.dash}"` : ''}`;
      const svg = `<polyline points="${shown.map(([x, y]) => `${fmt(x)},${fmt(y)}`).join(' ')}" ${attributes}/>`;
      return { svg, head: shown[shown.length - 1] };
    }
    case 'text': {
      const characters = [...entity.value];
      const count = Math.max(1, Math.ceil(characters.length * f));
      const transform = entity.rotate ? ` transform="rotate(${entity.rotate} ${fmt(entity.x)} ${fmt(entity.y)})"` : '';
      const weight = entity.weight ? ` font-weight="${entity.weight}"` : '';
      const svg = `<text x="${fmt(entity.x)}" y="${fmt(entity.y)}" font-family="${entity.font ?? FONT}" font-size="${entity.size}" fill="${entity.color}" text-anchor="${entity.anchor}"${weight}${transform}>${esc(characters.slice(0, count).join(''))}</text>`;
      return { svg, head: [entity.x, entity.y] };
    }
    case 'group': {
      const total = entity.parts.reduce((sum, part) => sum + weightOf(part), 0);
      let start = 0;
      let svg = '';
      let head = null;
      for (const part of entity.parts) {
        const share = weightOf(part) / total;
        const local = share === 0 ? 1 : Math.min(1, Math.max(0, (f - start) / share));
        const rendered = renderEntity(part, local, context);
        svg += rendered.svg;
        if (rendered.head) head = rendered.head;
        start += share;
      }
      return { svg, head };
    }
    case 'hatch': {
      context.clip += 1;
      const id = `clip${context.clip}`;
      const xs = entity.points.map((p) => p[0]);
      const ys = entity.points.map((p) => p[1]);
      const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
      const reach = Math.hypot(maxX - minX, maxY - minY);
      const cx = (minX + maxX) / 2;
      const cy = (minY + maxY) / 2;
      const families = entity.cross ? [entity.angle, entity.angle + 90] : [entity.angle];
      const count = Math.ceil(reach / entity.gap);
      const lines = [];
      for (const angle of families) {
        const a = rad(angle);
        const [dx, dy] = [Math.cos(a), -Math.sin(a)];
        const [nx, ny] = [-dy, dx];
        for (let index = -count; index <= count; index += 1) {
          const ox = cx + nx * index * entity.gap;
          const oy = cy + ny * index * entity.gap;
          lines.push(`<line x1="${fmt(ox - dx * reach)}" y1="${fmt(oy - dy * reach)}" x2="${fmt(ox + dx * reach)}" y2="${fmt(oy + dy * reach)}"/>`);
        }
      }
      const shown = lines.slice(0, Math.ceil(lines.length * f));
      const svg = `<clipPath id="${id}"><polygon points="${entity.points.map(([x, y]) => `${x},${y}`).join(' ')}"/></clipPath><g clip-path="url(#${id})" stroke="${entity.color}" stroke-width="0.9">${shown.join('')}</g>`;
      return { svg, head: null };
    }
    case 'marker': {
      const { x, y } = entity;
      const color = C.green;
      let shape;
      switch (entity.kind) {
        case 'endpoint':
          shape = `<rect x="${x - 6}" y="${y - 6}" width="12" height="12" fill="none" stroke="${color}" stroke-width="2"/>`;
          break;
        case 'midpoint':
          shape = `<polygon points="${x},${y - 8} ${x - 7},${y + 5} ${x + 7},${y + 5}" fill="none" stroke="${color}" stroke-width="2"/>`;
          break;
        case 'center':
          shape = `<circle cx="${x}" cy="${y}" r="7" fill="none" stroke="${color}" stroke-width="2"/>`;
          break;
        case 'quadrant':
          shape = `<polygon points="${x},${y - 8} ${x + 8},${y} ${x},${y + 8} ${x - 8},${y}" fill="none" stroke="${color}" stroke-width="2"/>`;
          break;
        case 'tangent':
          shape = `<circle cx="${x}" cy="${y}" r="6" fill="none" stroke="${color}" stroke-width="2"/><line x1="${x - 8}" y1="${y - 6}" x2="${x + 8}" y2="${y - 6}" stroke="${color}" stroke-width="2"/>`;
          break;
        default:
          shape = `<line x1="${x - 5}" y1="${y - 5}" x2="${x + 5}" y2="${y + 5}" stroke="${C.yellow}" stroke-width="1.5"/><line x1="${x - 5}" y1="${y + 5}" x2="${x + 5}" y2="${y - 5}" stroke="${C.yellow}" stroke-width="1.5"/>`;
      }
      const label = entity.label ? renderTooltip(x + 12, y + 22, entity.label) : '';
      return { svg: shape + label, head: [x, y] };
    }
    case 'tooltip':
      return { svg: renderTooltip(entity.x, entity.y, entity.value), head: null };
    case 'window': {
      const x2 = entity.x1 + (entity.x2 - entity.x1) * Math.min(1, f * 1.4);
      const y2 = entity.y1 + (entity.y2 - entity.y1) * Math.min(1, f * 1.4);
      const fill = entity.crossing ? 'rgba(94,224,122,0.16)' : 'rgba(108,156,255,0.18)';
      const stroke = entity.crossing ? C.green : C.blue;
      const svg = `<rect x="${fmt(Math.min(entity.x1, x2))}" y="${fmt(Math.min(entity.y1, y2))}" width="${fmt(Math.abs(x2 - entity.x1))}" height="${fmt(Math.abs(y2 - entity.y1))}" fill="${fill}" stroke="${stroke}" stroke-width="1"${entity.crossing ? ` stroke-dasharray="${DASH.fine}"` : ''}/>`;
      return { svg, head: [x2, y2] };
    }
    case 'cover':
      return { svg: `<rect x="${entity.x}" y="${entity.y}" width="${entity.w}" height="${entity.h}" fill="${entity.fill}" fill-opacity="${entity.opacity}"/>`, head: null };
    case 'panel':
      return { svg: renderPanel(entity, f), head: null };
    default:
      throw new Error(`unknown entity ${entity.type}`);
  }
}

function renderTooltip(x, y, value) {
  const width = textWidth(value, 12) + 12;
  return `<rect x="${fmt(x)}" y="${fmt(y - 14)}" width="${fmt(width)}" height="19" rx="2" fill="#fff7c2" stroke="#b9a94a" stroke-width="0.8"/><text x="${fmt(x + 6)}" y="${fmt(y)}" font-family="${FONT}" font-size="12" fill="#222">${esc(value)}</text>`;
}

function renderPanel(entity, f) {
  const rowHeight = 24;
  const height = 30 + entity.rows.length * rowHeight + 10;
  const opacity = Math.min(1, f * 5);
  const shown = Math.min(entity.rows.length, Math.ceil(entity.rows.length * Math.min(1, f * 1.6)));
  let svg = `<g opacity="${fmt(opacity)}"><rect x="${entity.x + 3}" y="${entity.y + 4}" width="${entity.w}" height="${height}" rx="4" fill="#000" fill-opacity="0.35"/>`;
  svg += `<rect x="${entity.x}" y="${entity.y}" width="${entity.w}" height="${height}" rx="4" fill="#2a3039" stroke="#56616e"/>`;
  svg += `<rect x="${entity.x}" y="${entity.y}" width="${entity.w}" height="26" rx="4" fill="#3a4451"/><rect x="${entity.x}" y="${entity.y + 20}" width="${entity.w}" height="6" fill="#3a4451"/>`;
  svg += `<text x="${entity.x + 12}" y="${entity.y + 18}" font-family="${FONT}" font-size="13" fill="#ffffff">${esc(entity.title)}</text>`;
  svg += `<text x="${entity.x + entity.w - 18}" y="${entity.y + 18}" font-family="${FONT}" font-size="13" fill="#b8c2cc">×</text>`;
  entity.rows.slice(0, shown).forEach((row, index) => {
    const top = entity.y + 32 + index * rowHeight;
    if (row.hl) svg += `<rect x="${entity.x + 6}" y="${top}" width="${entity.w - 12}" height="${rowHeight - 3}" rx="2" fill="#2468f2"/>`;
    let x = entity.x + 14;
    if (row.swatch) {
      svg += `<rect x="${x}" y="${top + 6}" width="10" height="10" fill="${row.swatch}" stroke="#111" stroke-width="0.5"/>`;
      x += 18;
    }
    svg += `<text x="${x}" y="${top + 16}" font-family="${FONT}" font-size="13" fill="${row.hl ? '#ffffff' : '#dfe5ec'}" xml:space="preserve">${esc(row.text)}</text>`;
    if (row.bar !== undefined) {
      const barX = entity.x + entity.w - 150;
      const fraction = Math.min(row.bar, row.bar * Math.min(1, f * 1.3));
      svg += `<rect x="${barX}" y="${top + 7}" width="120" height="8" rx="4" fill="#1b2027"/><rect x="${barX}" y="${top + 7}" width="${fmt(120 * fraction)}" height="8" rx="4" fill="${fraction >= 1 ? C.green : '#2468f2'}"/>`;
      svg += `<text x="${barX + 126}" y="${top + 15}" font-family="${MONO}" font-size="10" fill="#9aa5b1">${fraction >= 1 ? 'OK' : `${Math.round(fraction * 100)}%`}</text>`;
    }
  });
  return `${svg}</g>`;
}

function gridSvg() {
  let svg = `<rect x="0" y="${TOP}" width="${W}" height="${CMD_TOP - TOP}" fill="${BG}"/>`;
  for (let x = 0; x <= W; x += 20) svg += `<line x1="${x}" y1="${TOP}" x2="${x}" y2="${CMD_TOP}" stroke="${x % 100 === 0 ? '#2f3943' : '#262e37'}" stroke-width="1"/>`;
  for (let y = TOP + 12; y <= CMD_TOP; y += 20) svg += `<line x1="0" y1="${y}" x2="${W}" y2="${y}" stroke="${(y - TOP - 12) % 100 === 0 ? '#2f3943' : '#262e37'}" stroke-width="1"/>`;
  return svg;
}

const GRID = gridSvg();

function chromeSvg(lesson) {
  const label = `第${String(lesson.id).padStart(2, '0')}课  ${lesson.title}`;
  return (
    `<rect x="0" y="0" width="${W}" height="${TOP}" fill="#2b323b"/>` +
    `<rect x="10" y="7" width="14" height="14" rx="3" fill="#2468f2"/><text x="13" y="18" font-family="${FONT}" font-size="11" font-weight="bold" fill="#fff">X</text>` +
    `<text x="32" y="19" font-family="${FONT}" font-size="13" fill="#e6ebf0">迅捷CAD编辑器</text><text x="128" y="19" font-family="${FONT}" font-size="12" fill="#8d98a5">练习.dwg</text>` +
    `<text x="${W - 12}" y="19" font-family="${FONT}" font-size="12" fill="#c4ccd4" text-anchor="end">${esc(label)}</text>` +
    `<g stroke-width="1.6"><line x1="26" y1="256" x2="62" y2="256" stroke="${C.red}"/><line x1="26" y1="256" x2="26" y2="220" stroke="${C.green}"/></g>` +
    `<text x="66" y="260" font-family="${MONO}" font-size="11" fill="${C.red}">X</text><text x="22" y="215" font-family="${MONO}" font-size="11" fill="${C.green}">Y</text>` +
    `<rect x="0" y="${CMD_TOP}" width="${W}" height="${H - CMD_TOP}" fill="#15191e"/><line x1="0" y1="${CMD_TOP + 0.5}" x2="${W}" y2="${CMD_TOP + 0.5}" stroke="#38414b"/>`
  );
}

function crosshairSvg([x, y]) {
  return `<g stroke="#f4f6f8" stroke-width="1"><line x1="${fmt(x - 24)}" y1="${fmt(y)}" x2="${fmt(x + 24)}" y2="${fmt(y)}"/><line x1="${fmt(x)}" y1="${fmt(y - 24)}" x2="${fmt(x)}" y2="${fmt(y + 24)}"/><rect x="${fmt(x - 4)}" y="${fmt(y - 4)}" width="8" height="8" fill="none"/></g>`;
}

/** The lesson's steps with absolute times, the command-line log and every entity's timing. */
function timeline(lesson) {
  const steps = [];
  const log = [];
  let t = INTRO;
  for (const step of lesson.steps) {
    const start = t;
    const dur = step.dur;
    const at = (fraction) => start + dur * fraction;
    if (step.cmd) log.push({ text: `命令: ${step.cmd}`, typedFrom: 4, start: at(0), end: at(0.16) });
    const prompt = step.prompt ?? '';
    const input = step.input ?? '';
    const promptStart = step.cmd ? at(0.18) : at(0);
    log.push({ text: input ? `${prompt} ${input}` : prompt, typedFrom: prompt.length + 1, start: promptStart, end: input ? at(0.32) : promptStart });
    steps.push({ ...step, start, end: start + dur, swapAt: at(step.swapAt ?? 0.3) });
    t += dur;
  }
  const body = t;
  const total = Math.ceil(body + MIN_OUTRO);
  return { steps, log, body, total };
}

function drawState(lesson, plan, t, options) {
  const context = { clip: 0 };
  let svg = '';
  let cursor = [320, 150];
  const removed = new Set();
  for (const step of plan.steps) if (step.remove && t >= step.swapAt) step.remove.forEach((id) => removed.add(id));
  const visible = (entity) => !(entity.id && removed.has(entity.id));

  for (const entity of lesson.base ?? []) {
    if (visible(entity)) svg += renderEntity(entity, 1, context).svg;
  }
  for (const step of plan.steps) {
    if (t < step.start) break;
    const isCurrent = t < step.end;
    const drawFrom = step.start + step.dur * 0.3;
    const drawTo = step.start + step.dur * 0.92;
    const progress = Math.min(1, Math.max(0, (t - drawFrom) / (drawTo - drawFrom)));
    const animated = [...(step.add ?? []).filter((entity) => !entity.instant), ...(isCurrent ? (step.temp ?? []).filter((entity) => !entity.instant) : [])];
    const instant = [...(step.add ?? []).filter((entity) => entity.instant), ...(isCurrent ? (step.temp ?? []).filter((entity) => entity.instant) : [])];
    const total = animated.reduce((sum, entity) => sum + weightOf(entity), 0);
    let startShare = 0;
    const layers = [];
    for (const entity of animated) {
      const share = weightOf(entity) / total;
      const local = isCurrent ? Math.min(1, Math.max(0, (progress - startShare) / share)) : 1;
      startShare += share;
      layers.push({ entity, local });
    }
    if (t >= step.swapAt) for (const entity of instant) layers.push({ entity, local: 1 });
    // Temporary overlays (covers, panels) sit above the step's drawing only while it is current.
    for (const { entity, local } of layers) {
      if (!visible(entity)) continue;
      const rendered = renderEntity(entity, local, context);
      svg += rendered.svg;
      if (rendered.head && local > 0 && entity.type !== 'text') cursor = rendered.head;
    }
  }
  if (options.cursor) svg += crosshairSvg(cursor);
  return svg;
}

function commandLineSvg(plan, t) {
  const started = plan.log.filter((entry) => entry.start <= t);
  const current = started[started.length - 1];
  const history = started.slice(-3, -1);
  let svg = '';
  history.forEach((entry, index) => {
    svg += `<text x="10" y="${CMD_TOP + 18 + index * 17}" font-family="${MONO}" font-size="12" fill="#7d8894" xml:space="preserve">${esc(entry.text)}</text>`;
  });
  const y = CMD_TOP + 52;
  if (!current) {
    svg += `<text x="10" y="${y}" font-family="${MONO}" font-size="13" fill="#e8edf2">命令:</text>`;
    return svg;
  }
  const characters = [...current.text];
  const typedTotal = characters.length - current.typedFrom;
  const fraction = current.end <= current.start ? 1 : Math.min(1, (t - current.start) / (current.end - current.start));
  const shown = characters.slice(0, current.typedFrom + Math.round(typedTotal * fraction)).join('');
  const caret = Math.floor(t * 2.5) % 2 === 0 ? '▏' : '';
  svg += `<text x="10" y="${y}" font-family="${MONO}" font-size="13" fill="#e8edf2" xml:space="preserve">${esc(shown)}<tspan fill="#ffffff">${caret}</tspan></text>`;
  return svg;
}

function tipSvg(plan, t) {
  const step = plan.steps.find((candidate) => t >= candidate.start && t < candidate.end);
  if (!step?.tip) return '';
  const opacity = Math.min(1, (t - step.start) / 0.3);
  const size = 14;
  const width = textWidth(step.tip, size) + 28;
  const x = (W - width) / 2;
  return `<g opacity="${fmt(opacity)}"><rect x="${fmt(x)}" y="266" width="${fmt(width)}" height="27" rx="5" fill="#000" fill-opacity="0.62"/><text x="${W / 2}" y="285" font-family="${FONT}" font-size="${size}" fill="#ffe9a8" text-anchor="middle">${esc(step.tip)}</text></g>`;
}

function introSvg(lesson, course, opacity) {
  const number = String(lesson.id).padStart(2, '0');
  const badge = lesson.free ? '免费试看' : 'CAD教程会员';
  const badgeWidth = textWidth(badge, 12) + 20;
  let motif = '';
  for (let index = 0; index < 6; index += 1) motif += `<line x1="${430 + index * 28}" y1="70" x2="${430 + index * 28}" y2="290" stroke="#ffffff" stroke-opacity="0.05"/>`;
  motif += `<circle cx="520" cy="180" r="86" fill="none" stroke="#4fa3ff" stroke-opacity="0.35" stroke-width="2"/><circle cx="520" cy="180" r="40" fill="none" stroke="#4fa3ff" stroke-opacity="0.25" stroke-width="2"/><line x1="410" y1="180" x2="630" y2="180" stroke="#ff6b6b" stroke-opacity="0.35" stroke-dasharray="${DASH.center}"/><line x1="520" y1="70" x2="520" y2="290" stroke="#ff6b6b" stroke-opacity="0.35" stroke-dasharray="${DASH.center}"/>`;
  return (
    `<g opacity="${fmt(opacity)}"><defs><linearGradient id="intro" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0e1a2b"/><stop offset="1" stop-color="#1d3b63"/></linearGradient></defs>` +
    `<rect width="${W}" height="${H}" fill="url(#intro)"/>${motif}` +
    `<rect x="40" y="44" width="4" height="18" fill="#2468f2"/><text x="52" y="59" font-family="${FONT}" font-size="15" fill="#a9c4e8">${esc(course.title)}</text>` +
    `<text x="40" y="128" font-family="${FONT}" font-size="22" fill="#4fa3ff" font-weight="bold">第 ${number} 课</text>` +
    `<text x="40" y="178" font-family="${FONT}" font-size="36" fill="#ffffff" font-weight="bold">${esc(lesson.title)}</text>` +
    `<text x="40" y="222" font-family="${FONT}" font-size="15" fill="#c6d2df">主讲：${esc(lesson.lecturer)}\u3000${esc(lesson.lecturer_title)}</text>` +
    `<rect x="40" y="246" width="${fmt(badgeWidth)}" height="24" rx="12" fill="${lesson.free ? '#16a34a' : '#c98a12'}"/><text x="${fmt(40 + badgeWidth / 2)}" y="263" font-family="${FONT}" font-size="12" fill="#ffffff" text-anchor="middle">${badge}</text>` +
    `<text x="40" y="326" font-family="${FONT}" font-size="12" fill="#6f87a6">迅捷CAD · 视频教程</text></g>`
  );
}

function outroSvg(lesson, next, opacity, reveal) {
  const x = 120;
  const width = 400;
  const height = next ? 186 : 160;
  let svg = `<g opacity="${fmt(opacity)}"><rect x="0" y="${TOP}" width="${W}" height="${CMD_TOP - TOP}" fill="#0b1118" fill-opacity="0.55"/>`;
  svg += `<rect x="${x}" y="52" width="${width}" height="${height}" rx="8" fill="#13202f" stroke="#2e4a6b"/>`;
  svg += `<text x="${x + 22}" y="84" font-family="${FONT}" font-size="17" font-weight="bold" fill="#ffffff">本课要点</text>`;
  lesson.points.forEach((point, index) => {
    if (reveal <= index / lesson.points.length) return;
    svg += `<circle cx="${x + 28}" cy="${113 + index * 30}" r="3.5" fill="#4fa3ff"/><text x="${x + 40}" y="${118 + index * 30}" font-family="${FONT}" font-size="14" fill="#dce6f0">${esc(point)}</text>`;
  });
  if (next) svg += `<text x="${x + 22}" y="${52 + height - 18}" font-family="${FONT}" font-size="12" fill="#7f9bbb">下一课：${esc(next.title)}</text>`;
  return `${svg}</g>`;
}

function frameSvg(lesson, course, next, plan, t) {
  const inBody = t >= INTRO && t < plan.body;
  const drawing = drawState(lesson, plan, Math.min(t, plan.body), { cursor: inBody || t < INTRO });
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${GRID}${chromeSvg(lesson)}${drawing}`;
  svg += commandLineSvg(plan, Math.min(t, plan.body));
  if (inBody) svg += tipSvg(plan, t);
  if (t >= plan.body) {
    const since = t - plan.body;
    svg += outroSvg(lesson, next, Math.min(1, since / 0.4), Math.min(1, since / 1.2) + 0.01);
  }
  if (t < INTRO) svg += introSvg(lesson, course, t < INTRO - 0.5 ? 1 : (INTRO - t) / 0.5);
  return `${svg}</svg>`;
}

// The poster: the lesson's finished drawing under a title band at the top, where a player's
// controls (at the bottom) do not cover it.
function posterSvg(lesson, plan) {
  const number = String(lesson.id).padStart(2, '0');
  const drawing = drawState(lesson, plan, plan.body, { cursor: false });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${GRID}${chromeSvg(lesson)}${drawing}${commandLineSvg(plan, plan.body)}` +
    `<defs><linearGradient id="band" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#0b1118" stop-opacity="0.96"/><stop offset="0.62" stop-color="#0b1118" stop-opacity="0.82"/><stop offset="1" stop-color="#0b1118" stop-opacity="0"/></linearGradient></defs>` +
    `<rect x="0" y="0" width="${W}" height="150" fill="url(#band)"/>` +
    `<text x="28" y="46" font-family="${FONT}" font-size="16" font-weight="bold" fill="#4fa3ff">第 ${number} 课</text>` +
    `<text x="28" y="84" font-family="${FONT}" font-size="28" font-weight="bold" fill="#ffffff">${esc(lesson.title)}</text>` +
    `<text x="28" y="110" font-family="${FONT}" font-size="13" fill="#b8c4d0">主讲：${esc(lesson.lecturer)}\u3000${esc(lesson.lecturer_title)}</text></svg>`
  );
}

async function rasterise(svg) {
  return sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
}

async function encodeClip(lesson, course, next, plan, output) {
  const frames = plan.total * FPS;
  const ffmpeg = spawn(
    'ffmpeg',
    [
      '-hide_banner', '-loglevel', 'error', '-y',
      '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${W}x${H}`, '-r', String(FPS), '-i', '-',
      '-c:v', 'libx264', '-preset', 'veryslow', '-tune', 'animation', '-crf', '30',
      '-maxrate', '200k', '-bufsize', '400k', '-g', String(FPS * 2), '-pix_fmt', 'yuv420p',
      '-profile:v', 'main', '-level', '3.0', '-threads', '2', '-an',
      '-metadata', `title=第${lesson.id}课 ${lesson.title}`, '-map_metadata', '-1', '-movflags', '+faststart',
      output,
    ],
    { stdio: ['pipe', 'inherit', 'inherit'] },
  );
  const done = new Promise((resolve, reject) => {
    ffmpeg.on('error', reject);
    ffmpeg.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${code} for ${output}`))));
  });
  const BATCH = 12;
  for (let first = 0; first < frames; first += BATCH) {
    const batch = await Promise.all(Array.from({ length: Math.min(BATCH, frames - first) }, (_, index) => rasterise(frameSvg(lesson, course, next, plan, (first + index) / FPS))));
    for (const frame of batch) {
      if (!ffmpeg.stdin.write(frame)) await new Promise((resolve) => ffmpeg.stdin.once('drain', resolve));
    }
  }
  ffmpeg.stdin.end();
  await done;
}

function probe(file) {
  const out = execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,pix_fmt,width,height:format=duration', '-of', 'json', file], { encoding: 'utf8' });
  const json = JSON.parse(out);
  return { ...json.streams[0], duration: Number(json.format.duration) };
}

/** Writes `duration: N` of lesson `id` in lessons.yml, keeping the rest of the file as written. */
function setDuration(source, id, seconds) {
  const block = new RegExp(`(\\n  - id: ${id}\\n(?:    .*\\n|\\s*\\n)*?    duration: )\\d+`);
  if (!block.test(source)) throw new Error(`lessons.yml: no duration line for lesson ${id}`);
  return source.replace(block, `$1${seconds}`);
}

async function main() {
  const args = process.argv.slice(2);
  const onlyIndex = args.indexOf('--only');
  const only = onlyIndex === -1 ? null : new Set(args[onlyIndex + 1].split(',').map(Number));
  const peekIndex = args.indexOf('--peek');
  const peekDir = peekIndex === -1 ? null : path.resolve(args[peekIndex + 1]);
  const isPostersOnly = args.includes('--posters-only');

  const data = parseYaml(readFileSync(LESSONS_FILE, 'utf8'));
  const scenes = lessonScenes();
  mkdirSync(PUBLIC_DIR, { recursive: true });
  mkdirSync(PRIVATE_DIR, { recursive: true });
  if (peekDir) mkdirSync(peekDir, { recursive: true });

  const durations = new Map();
  const report = [];
  for (const [index, entry] of data.lessons.entries()) {
    if (only && !only.has(entry.id)) continue;
    const scene = scenes[entry.id];
    if (!scene) throw new Error(`no scene for lesson ${entry.id}`);
    const lesson = { ...entry, ...scene };
    const next = data.lessons[index + 1];
    const plan = timeline(lesson);
    if (isPostersOnly) {
      await sharp(Buffer.from(posterSvg(lesson, plan))).jpeg({ quality: 78, mozjpeg: true }).toFile(path.join(PUBLIC_DIR, `${entry.slug}.jpg`));
      continue;
    }
    const started = Date.now();
    const folder = entry.free ? PUBLIC_DIR : PRIVATE_DIR;
    const output = path.join(folder, `${entry.slug}.mp4`);
    // A lesson that changed between free and member must not leave its clip in the other folder.
    rmSync(path.join(entry.free ? PRIVATE_DIR : PUBLIC_DIR, `${entry.slug}.mp4`), { force: true });
    await encodeClip(lesson, data.course, next, plan, output);
    await sharp(Buffer.from(posterSvg(lesson, plan))).jpeg({ quality: 78, mozjpeg: true }).toFile(path.join(PUBLIC_DIR, `${entry.slug}.jpg`));
    if (peekDir) {
      for (const at of [1, INTRO + 1, (INTRO + plan.body) / 2, plan.body - 0.5, plan.total - 0.3]) {
        await sharp(Buffer.from(frameSvg(lesson, data.course, next, plan, at))).png().toFile(path.join(peekDir, `${String(entry.id).padStart(2, '0')}-${at.toFixed(1)}.png`));
      }
    }
    const info = probe(output);
    if (info.codec_name !== 'h264' || info.pix_fmt !== 'yuv420p' || info.width !== W || info.height !== H) throw new Error(`${output}: unexpected stream ${JSON.stringify(info)}`);
    const seconds = Math.round(info.duration);
    durations.set(entry.id, seconds);
    const size = statSync(output).size;
    report.push({ id: entry.id, file: path.relative(ROOT, output), seconds: info.duration, kb: Math.round(size / 1024), ms: Date.now() - started });
    console.info(`lesson ${entry.id}: ${path.relative(ROOT, output)} ${info.duration.toFixed(2)} s, ${Math.round(size / 1024)} KB (${Date.now() - started} ms)`);
  }
  // Read again: the file may have been edited while the clips were rendering.
  let yamlText = readFileSync(LESSONS_FILE, 'utf8');
  for (const [id, seconds] of durations) yamlText = setDuration(yamlText, id, seconds);
  writeFileSync(LESSONS_FILE, yamlText);
  const totalKb = report.reduce((sum, row) => sum + row.kb, 0);
  console.info(isPostersOnly ? 'posters written' : `${report.length} clip(s), ${totalKb} KB in all; durations written to ${path.relative(ROOT, LESSONS_FILE)}`);
}

await main();
