/**
 * The GD&T symbols of AutoCAD's `gdt` font, drawn from outlines made here (not from a font file):
 * a TOLERANCE frame names them as `{\Fgdt;x}`, x a letter of that font. Each symbol is a set of
 * strokes and filled areas in a unit cell: x from 0 to its advance, y from 0 (baseline) to 1 (the
 * text height), drawn by the frame handler scaled to the dimension text height.
 */

export interface GdtSymbol {
  /** Advance in text heights. */
  advance: number;
  /** Open or closed polylines (x, y pairs) to stroke. */
  strokes: { xy: number[]; closed: boolean }[];
  /** Rings (x, y pairs) to fill. */
  fills: number[][];
}

const SEG = 32;

function circle(cx: number, cy: number, r: number, from = 0, to = Math.PI * 2): number[] {
  const n = Math.max(4, Math.ceil((SEG * Math.abs(to - from)) / (Math.PI * 2)));
  const out: number[] = [];
  for (let i = 0; i <= n; i++) {
    const t = from + ((to - from) * i) / n;
    out.push(cx + r * Math.cos(t), cy + r * Math.sin(t));
  }
  return out;
}

const open = (...xy: number[]) => ({ xy, closed: false });
const closed = (...xy: number[]) => ({ xy, closed: true });
const ring = (xy: number[]) => ({ xy, closed: true });
const arc = (xy: number[]) => ({ xy, closed: false });

/** A letter inside a circle (material conditions, projected zone, ...): the letter as strokes. */
function circled(letter: number[][]): GdtSymbol {
  return { advance: 1.1, strokes: [ring(circle(0.55, 0.5, 0.5)), ...letter.map((xy) => ({ xy, closed: false }))], fills: [] };
}

/** An arrow head (filled) at (x, y) pointing along (dx, dy), 0.2 long. */
function head(x: number, y: number, dx: number, dy: number): number[] {
  const l = Math.hypot(dx, dy) || 1;
  const ux = dx / l,
    uy = dy / l;
  const bx = x - ux * 0.22,
    by = y - uy * 0.22;
  return [x, y, bx - uy * 0.08, by + ux * 0.08, bx + uy * 0.08, by - ux * 0.08];
}

const SYMBOLS: Record<string, GdtSymbol> = {
  // Angularity ∠
  a: { advance: 1.1, strokes: [open(0.95, 0.85, 0.1, 0.05, 1.0, 0.05)], fills: [] },
  // Perpendicularity ⊥
  b: { advance: 1.1, strokes: [open(0.1, 0.05, 1.0, 0.05), open(0.55, 0.05, 0.55, 0.95)], fills: [] },
  // Flatness ▱
  c: { advance: 1.3, strokes: [closed(0.1, 0.2, 0.9, 0.2, 1.2, 0.8, 0.4, 0.8)], fills: [] },
  // Profile of a surface ⌓ (a closed half circle)
  d: { advance: 1.2, strokes: [ring([...circle(0.6, 0.2, 0.5, 0, Math.PI), 0.1, 0.2])], fills: [] },
  // Circularity ○
  e: { advance: 1.1, strokes: [ring(circle(0.55, 0.5, 0.45))], fills: [] },
  // Parallelism ∥ (slanted)
  f: { advance: 1.1, strokes: [open(0.15, 0.05, 0.55, 0.95), open(0.55, 0.05, 0.95, 0.95)], fills: [] },
  // Cylindricity ⌭
  g: { advance: 1.3, strokes: [ring(circle(0.65, 0.5, 0.35)), open(0.1, 0.05, 0.65, 0.95), open(0.65, 0.05, 1.2, 0.95)], fills: [] },
  // Circular runout ↗
  h: { advance: 1.1, strokes: [open(0.15, 0.05, 0.9, 0.8)], fills: [head(0.95, 0.85, 1, 1)] },
  // Symmetry ⌯
  i: { advance: 1.3, strokes: [open(0.1, 0.5, 1.2, 0.5), open(0.35, 0.8, 0.95, 0.8), open(0.35, 0.2, 0.95, 0.2)], fills: [] },
  // Position ⌖
  j: { advance: 1.3, strokes: [ring(circle(0.65, 0.5, 0.33)), open(0.65, 0.0, 0.65, 1.0), open(0.15, 0.5, 1.15, 0.5)], fills: [] },
  // Profile of a line ⌒
  k: { advance: 1.2, strokes: [arc(circle(0.6, 0.2, 0.5, 0, Math.PI))], fills: [] },
  // Least material condition Ⓛ
  l: circled([[0.4, 0.75, 0.4, 0.25, 0.72, 0.25]]),
  // Maximum material condition Ⓜ
  m: circled([[0.32, 0.25, 0.32, 0.75, 0.55, 0.4, 0.78, 0.75, 0.78, 0.25]]),
  // Diameter ⌀
  n: { advance: 1.0, strokes: [ring(circle(0.5, 0.45, 0.38)), open(0.1, 0.0, 0.9, 0.95)], fills: [] },
  // Projected tolerance zone Ⓟ
  p: circled([[0.42, 0.25, 0.42, 0.75, 0.62, 0.75, 0.7, 0.67, 0.7, 0.58, 0.62, 0.5, 0.42, 0.5]]),
  // Concentricity / coaxiality ◎
  r: { advance: 1.1, strokes: [ring(circle(0.55, 0.5, 0.45)), ring(circle(0.55, 0.5, 0.22))], fills: [] },
  // Regardless of feature size Ⓢ
  s: circled([[0.72, 0.68, 0.62, 0.75, 0.45, 0.75, 0.36, 0.66, 0.38, 0.55, 0.7, 0.45, 0.73, 0.34, 0.64, 0.25, 0.46, 0.25, 0.35, 0.32]]),
  // Total runout ⌰
  t: {
    advance: 1.4,
    strokes: [open(0.1, 0.05, 1.3, 0.05), open(0.15, 0.1, 0.55, 0.8), open(0.6, 0.1, 1.0, 0.8)],
    fills: [head(0.6, 0.88, 0.57, 1), head(1.05, 0.88, 0.57, 1)],
  },
  // Straightness ⏤
  u: { advance: 1.2, strokes: [open(0.1, 0.5, 1.1, 0.5)], fills: [] },
  // Counterbore ⌴
  v: { advance: 1.1, strokes: [open(0.1, 0.95, 0.1, 0.2, 1.0, 0.2, 1.0, 0.95)], fills: [] },
  // Countersink ⌵
  w: { advance: 1.1, strokes: [open(0.1, 0.95, 0.55, 0.1, 1.0, 0.95)], fills: [] },
  // Depth ↧
  x: { advance: 1.0, strokes: [open(0.5, 0.95, 0.5, 0.2), open(0.1, 0.95, 0.9, 0.95)], fills: [head(0.5, 0.05, 0, -1)] },
  // Conical taper
  y: { advance: 1.3, strokes: [closed(0.1, 0.5, 1.2, 0.85, 1.2, 0.15)], fills: [] },
  // Slope
  z: { advance: 1.3, strokes: [closed(0.1, 0.1, 1.2, 0.1, 1.2, 0.75)], fills: [] },
};

/** The symbol a letter of the gdt font stands for (upper and lower case alike), or undefined. */
export function gdtSymbol(letter: string): GdtSymbol | undefined {
  return Object.prototype.hasOwnProperty.call(SYMBOLS, letter.toLowerCase()) ? SYMBOLS[letter.toLowerCase()] : undefined;
}
