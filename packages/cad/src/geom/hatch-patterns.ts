/**
 * A library of the common hatch pattern names (AutoCAD's standard and architectural names), for
 * HATCH entities that name a pattern but carry no pattern lines (some writers omit them).
 *
 * Each pattern is a set of line families. A family is written here in the line's own frame:
 *   [angle°, originX, originY, shiftAlong, spacing, ...dashes]
 * - the lines run at `angle` through the origin and through every origin + k·offset,
 * - offset = (shiftAlong along the line, spacing across it), rotated by `angle`,
 * - dashes: > 0 pen down, < 0 pen up, 0 a dot; none = a continuous line.
 * Imperial patterns are in inches (scale 1 = the pattern as drawn in an inch drawing); metric
 * drawings get them ×25.4, like AutoCAD's ISO pattern file. The geometry below is our own
 * description of each pattern's look (spacings of the classic patterns follow their well-known
 * proportions; the irregular ones such as AR-CONC, AR-SAND, GRAVEL are our approximations).
 */

/** One line family of a hatch pattern, as DXF stores it (group codes 53, 43/44, 45/46, 49). */
export interface HatchPatternLine {
  /** Degrees. */
  angle: number;
  base: [number, number];
  offset: [number, number];
  dashes: number[];
}

type Family = readonly number[];

const S45 = Math.SQRT1_2; // sin 45°
const H60 = Math.sqrt(3) / 2; // sin 60°

/** Patterns in inch units. */
const IMPERIAL: Record<string, readonly Family[]> = {
  // Single 45° lines (iron, brick, stone masonry).
  ANSI31: [[45, 0, 0, 0, 0.125]],
  // Steel: pairs of close 45° lines.
  ANSI32: [
    [45, 0, 0, 0, 0.375],
    [45, 0.25 * S45, 0, 0, 0.375],
  ],
  // Bronze, brass, copper: a line and a dashed line.
  ANSI33: [
    [45, 0, 0, 0, 0.25],
    [45, 0.25 * S45, 0, 0, 0.25, 0.125, -0.0625],
  ],
  // Plastic, rubber: groups of four.
  ANSI34: [
    [45, 0, 0, 0, 0.75],
    [45, 0.25 * S45, 0, 0, 0.75],
    [45, 0.5 * S45, 0, 0, 0.75],
    [45, 0.75 * S45, 0, 0, 0.75],
  ],
  // Fire brick, refractory: a line and a dash-dot line.
  ANSI35: [
    [45, 0, 0, 0, 0.25],
    [45, 0.25 * S45, 0, 0, 0.25, 0.3125, -0.0625, 0, -0.0625],
  ],
  // Marble, slate, glass: dash-dot lines, staggered.
  ANSI36: [[45, 0, 0, 0.21875, 0.125, 0.3125, -0.0625, 0, -0.0625]],
  // Lead, zinc, magnesium: a square grid at 45°.
  ANSI37: [
    [45, 0, 0, 0, 0.125],
    [135, 0, 0, 0, 0.125],
  ],
  // Aluminium: lines crossed by dashes.
  ANSI38: [
    [45, 0, 0, 0, 0.125],
    [135, 0, 0, 0.25, 0.125, 0.3125, -0.1875],
  ],
  ANGLE: [
    [0, 0, 0, 0, 0.275, 0.2, -0.075],
    [90, 0, 0, 0, 0.275, 0.2, -0.075],
  ],
  // Masonry: 16 x 8 inch blocks, half-bond (architectural patterns are full size).
  'AR-B816': [
    [0, 0, 0, 0, 8],
    [90, 0, 0, 8, 8, 8, -8],
  ],
  'AR-B816C': [
    [0, 0, 0, 8, 8, 15.625, -0.375],
    [0, -8, 0.375, 8, 8, 15.625, -0.375],
    [90, 0, 0, 8, 8, -8.375, 7.625],
    [90, -0.375, 0, 8, 8, -8.375, 7.625],
  ],
  'AR-B88': [
    [0, 0, 0, 0, 8],
    [90, 0, 0, 8, 4, 8, -8],
  ],
  // Standard brick, 8 x 2-2/3 inch, half-bond.
  'AR-BRSTD': [
    [0, 0, 0, 0, 2.667],
    [90, 0, 0, 2.667, 4, 2.667, -2.667],
  ],
  // Concrete: small open triangles and specks, scattered (our approximation).
  'AR-CONC': [
    [50, 0, 0, 4.13, -5.9, 0.75, -8.25],
    [355, 0, 0, -2.04, 7.37, 0.6, -6.6],
    [100.45, 0.598, -0.052, 5.73, -6.94, 0.64, -7.01],
    [46.2, 0, 2, 6.2, -8.85, 1.125, -12.4],
    [96.7, 0.88, 1.93, 8.6, -10.4, 0.96, -10.5],
    [351.2, 0, 2, 7.8, 7.8, 0.9, -9.9],
    [21, 1, 0.75, 4.3, -3.3, 0, -2.6, 0, -3.9],
    [326, 0.9, 0.3, 3.1, 3.7, 0, -2.2, 0, -3.3],
    [71, 1.6, 1.6, 3.5, 2.9, 0, -2.9, 0, -4.1],
  ],
  // Herringbone (simplified).
  'AR-HBONE': [
    [45, 0, 0, 4, 4, 12, -4],
    [135, 2.828427125, 2.828427125, 4, -4, 12, -4],
  ],
  // Parquet: blocks of parallel boards.
  'AR-PARQ1': [
    [90, 0, 0, 12, 12, 12, -12],
    [90, 2, 0, 12, 12, 12, -12],
    [90, 4, 0, 12, 12, 12, -12],
    [90, 6, 0, 12, 12, 12, -12],
    [90, 8, 0, 12, 12, 12, -12],
    [90, 10, 0, 12, 12, 12, -12],
    [90, 12, 0, 12, 12, 12, -12],
    [0, 0, 12, 12, -12, 12, -12],
    [0, 0, 14, 12, -12, 12, -12],
    [0, 0, 16, 12, -12, 12, -12],
    [0, 0, 18, 12, -12, 12, -12],
    [0, 0, 20, 12, -12, 12, -12],
    [0, 0, 22, 12, -12, 12, -12],
    [0, 0, 24, 12, -12, 12, -12],
  ],
  // Roof shingles.
  'AR-RSHKE': [
    [0, 0, 0, 25.5, 12, 6, -5, 7, -4, 5, -6],
    [0, 6, 0.5, 25.5, 12, 5, -19],
    [90, 0, 0, 12, 25.5, 11.5, -36.5],
    [90, 6, 0, 12, 25.5, 11.5, -36.5],
    [90, 11, 0, 12, 25.5, 11.5, -36.5],
    [90, 18, 0, 12, 25.5, 11.5, -36.5],
  ],
  // Sand: fine irregular dots (our approximation).
  'AR-SAND': [
    [37.5, 0, 0, 2.8, 0.7, 0, -3.8, 0, -3.2, 0, -2.25],
    [7.5, 0, 0, 5.45, 1.25, 0, -2.2, 0, -6.7, 0, -3.35, 0, -4.1],
    [-32.5, -1.6, 0.4, 3.7, 1.1, 0, -4.9, 0, -4.2],
    [-17.5, 1.25, 0.6, 5, 1.3, 0, -3.3, 0, -5, 0, -3.1],
  ],

  // Box steel: paired verticals with short strokes between them.
  BOX: [
    [90, 0, 0, 0, 1],
    [90, 0.25, 0, 0, 1],
    [0, 0, 0, 0, 1, -0.25, 0.25],
    [0, 0, 0.25, 0, 1, -0.25, 0.25],
    [0, 0, 0.5, 0, 1, 0.25, -0.25],
    [0, 0, 0.75, 0, 1, 0.25, -0.25],
    [90, 0.5, 0, 0, 1, 0.25, -0.25],
    [90, 0.75, 0, 0, 1, 0.25, -0.25],
  ],
  // Brick in half bond: courses 0.25 high, bricks 0.5 long.
  BRICK: [
    [0, 0, 0, 0, 0.25],
    [90, 0, 0, 0, 0.5, 0.25, -0.25],
    [90, 0.25, 0, 0, 0.5, -0.25, 0.25],
  ],
  // Clay: groups of three close lines and a dashed one.
  CLAY: [
    [0, 0, 0, 0, 0.1875],
    [0, 0, 0.03125, 0, 0.1875],
    [0, 0, 0.0625, 0, 0.1875],
    [0, 0, 0.125, 0, 0.1875, 0.1875, -0.125],
  ],
  // Cork: lines with short 135° ticks between them.
  CORK: [
    [0, 0, 0, 0, 0.125],
    [135, 0.0625, -0.0625, 0, 0.5 * S45, 0.25 * S45, -0.25 * S45],
    [135, 0.09375, -0.0625, 0, 0.5 * S45, 0.25 * S45, -0.25 * S45],
    [135, 0.125, -0.0625, 0, 0.5 * S45, 0.25 * S45, -0.25 * S45],
  ],
  // Small crosses on a 0.25 grid.
  CROSS: [
    [0, 0, 0, 0.25, 0.25, 0.125, -0.375],
    [90, 0.0625, -0.0625, 0.25, 0.25, 0.125, -0.375],
  ],
  DASH: [[0, 0, 0, 0.125, 0.125, 0.125, -0.125]],
  // Dolomite: lines with 45° ticks.
  DOLMIT: [
    [0, 0, 0, 0, 0.25],
    [45, 0, 0, 0.5 * S45, 0.5 * S45, 0.5 * S45, -2 * 0.5 * S45],
  ],
  DOTS: [[0, 0, 0, 0.03125, 0.0625, 0, -0.0625]],
  // Earth: blocks of three horizontal and three vertical strokes, alternating.
  EARTH: [
    [0, 0, 0, 0.25, 0.25, 0.25, -0.25],
    [0, 0, 0.09375, 0.25, 0.25, 0.25, -0.25],
    [0, 0, 0.1875, 0.25, 0.25, 0.25, -0.25],
    [90, 0.03125, 0.21875, 0.25, 0.25, 0.25, -0.25],
    [90, 0.125, 0.21875, 0.25, 0.25, 0.25, -0.25],
    [90, 0.21875, 0.21875, 0.25, 0.25, 0.25, -0.25],
  ],
  // Flexible material: a line and a wavy dashed one.
  FLEX: [
    [0, 0, 0, 0, 0.25, 0.25, -0.25],
    [45, 0.25, 0, 0.25 * S45, 0.25 * S45, 0.0625, -0.23, 0.0625, -0.3],
  ],
  // Grass tufts: three short strokes fanning out.
  GRASS: [
    [90, 0, 0, S45, S45, 0.1875, -(2 * S45 - 0.1875)],
    [45, 0, 0, 0, 1, 0.1875, -0.8125],
    [135, 0, 0, 0, 1, 0.1875, -0.8125],
  ],
  // Gravel: irregular small polygons (our approximation: short strokes at several angles).
  GRAVEL: [
    [228.0128, 0.72, 1, 12.041, 0.0792, 0.1345, -13.3],
    [184.9697, 0.63, 0.9, 12.041, 0.0792, 0.1304, -12.9],
    [132.5104, 0.4, 0.88, 12.041, 0.0792, 0.1034, -10.2],
    [267.2737, 0.01, 0.63, 12.041, 0.0792, 0.1006, -9.98],
    [292.8337, 0, 0.42, 12.041, 0.0792, 0.0836, -8.29],
    [357.2737, 0.08, 0.23, 12.041, 0.0792, 0.1006, -9.98],
    [37.6942, 0.15, 0.01, 12.041, 0.0792, 0.0964, -9.57],
    [72.2553, 0.5, 0.17, 12.041, 0.0792, 0.111, -11],
    [121.4296, 0.72, 0.44, 12.041, 0.0792, 0.0911, -9],
  ],
  // Hexagons (side 0.125).
  HEX: [
    [0, 0, 0, 0, 0.25 * H60, 0.125, -0.25],
    [120, 0, 0, 0, 0.25 * H60, 0.125, -0.25],
    [60, 0.125, 0, 0, 0.25 * H60, 0.125, -0.25],
  ],
  // Honeycomb.
  HONEY: [
    [0, 0, 0, 0.1875, 0.125 * H60, 0.125, -0.25],
    [120, 0, 0, 0.1875, 0.125 * H60, 0.125, -0.25],
    [60, 0, 0, 0.1875, 0.125 * H60, -0.25, 0.125],
  ],
  // Hound's tooth (simplified to a staggered dash grid).
  HOUND: [
    [0, 0, 0, 0.25, 0.0625, 1, -0.5],
    [90, 0, 0, -0.25, 0.0625, 1, -0.5],
  ],
  // Insulation: a line every 3/8 with two dashed lines between.
  INSUL: [
    [0, 0, 0, 0, 0.375],
    [0, 0, 0.125, 0, 0.375, 0.125, -0.125],
    [0, 0, 0.25, 0, 0.375, 0.125, -0.125],
  ],
  LINE: [[0, 0, 0, 0, 0.125]],
  // Mud and sand: dashes and dots.
  MUDST: [[0, 0, 0, 0.5, 0.25, 0.25, -0.25, 0, -0.25, 0, -0.25]],
  NET: [
    [0, 0, 0, 0, 0.125],
    [90, 0, 0, 0, 0.125],
  ],
  NET3: [
    [0, 0, 0, 0, 0.125],
    [60, 0, 0, 0, 0.125],
    [120, 0, 0, 0, 0.125],
  ],
  // Plastic: groups of three lines.
  PLAST: [
    [0, 0, 0, 0, 0.25],
    [0, 0, 0.03125, 0, 0.25],
    [0, 0, 0.0625, 0, 0.25],
  ],
  PLASTI: [
    [0, 0, 0, 0, 0.25],
    [0, 0, 0.03125, 0, 0.25],
    [0, 0, 0.0625, 0, 0.25],
    [0, 0, 0.15625, 0, 0.25],
  ],
  // Concrete (sectional): 45° lines with dotted lines between.
  SACNCR: [
    [45, 0, 0, 0, 0.09375],
    [45, 0.09375 * S45, 0, 0, 0.09375, 0, -0.09375],
  ],
  // Squares (a dashed grid).
  SQUARE: [
    [0, 0, 0, 0, 0.125, 0.125, -0.125],
    [90, 0, 0, 0, 0.125, 0.125, -0.125],
  ],
  // Six-pointed stars.
  STARS: [
    [0, 0, 0, 0, 0.25 * H60, 0.125, -0.125],
    [60, 0, 0, 0, 0.25 * H60, 0.125, -0.125],
    [120, 0.0625, 0.125 * H60, 0, 0.25 * H60, 0.125, -0.125],
  ],
  // Steel: 45° lines with dashed lines between.
  STEEL: [
    [45, 0, 0, 0, 0.125],
    [45, 0, 0.0625, 0, 0.125, 0.0625, -0.0625],
  ],
  // Swamp: a dashed line with tufts (simplified).
  SWAMP: [
    [0, 0, 0, 0.5, 0.866025, 0.125, -0.875],
    [90, 0.0625, 0, 0.866025, 0.5, 0.0625, -1.669],
    [90, 0.078125, 0, 0.866025, 0.5, 0.05, -1.681],
    [90, 0.046875, 0, 0.866025, 0.5, 0.05, -1.681],
    [60, 0.09375, 0, 0.5, 0.866025, 0.04, -0.96],
    [120, 0.03125, 0, 0.5, 0.866025, 0.04, -0.96],
  ],
  // Heat transfer material: a line and a dashed line.
  TRANS: [
    [0, 0, 0, 0, 0.25],
    [0, 0, 0.125, 0, 0.25, 0.125, -0.125],
  ],
  // Equilateral triangles.
  TRIANG: [
    [60, 0, 0, 0.1875, 0.375 * H60, 0.1875, -0.1875],
    [120, 0, 0, 0.1875, 0.375 * H60, 0.1875, -0.1875],
    [0, -0.09375, 0.1875 * H60, 0.1875, 0.375 * H60, 0.1875, -0.1875],
  ],
  // Staircase zigzag.
  ZIGZAG: [
    [0, 0, 0, 0.125, 0.125, 0.125, -0.125],
    [90, 0.125, 0, 0.125, 0.125, 0.125, -0.125],
  ],
};

/** ISO line patterns, already in millimetres: [angle, x, y, along, spacing, dashes] with 5 mm spacing. */
const METRIC: Record<string, readonly Family[]> = {
  ACAD_ISO02W100: [[0, 0, 0, 0, 5, 12, -3]],
  ACAD_ISO03W100: [[0, 0, 0, 0, 5, 12, -18]],
  ACAD_ISO04W100: [[0, 0, 0, 0, 5, 24, -3, 0.5, -3]],
  ACAD_ISO05W100: [[0, 0, 0, 0, 5, 24, -3, 0.5, -3, 0.5, -3]],
  ACAD_ISO06W100: [[0, 0, 0, 0, 5, 24, -3, 0.5, -3, 0.5, -6.5]],
  ACAD_ISO07W100: [[0, 0, 0, 0, 5, 0.5, -3]],
  ACAD_ISO08W100: [[0, 0, 0, 0, 5, 24, -3, 6, -3]],
  ACAD_ISO09W100: [[0, 0, 0, 0, 5, 24, -3, 6, -3, 6, -3]],
  ACAD_ISO10W100: [[0, 0, 0, 0, 5, 12, -3, 0.5, -3]],
  ACAD_ISO11W100: [[0, 0, 0, 0, 5, 12, -3, 12, -3, 0.5, -3]],
  ACAD_ISO12W100: [[0, 0, 0, 0, 5, 12, -3, 0.5, -3, 0.5, -3]],
  ACAD_ISO13W100: [[0, 0, 0, 0, 5, 12, -3, 12, -3, 0.5, -6.5]],
  ACAD_ISO14W100: [[0, 0, 0, 0, 5, 12, -3, 0.5, -3, 0.5, -6.5]],
  ACAD_ISO15W100: [[0, 0, 0, 0, 5, 12, -3, 12, -3, 0.5, -3, 0.5, -3]],
};

const ALIASES: Record<string, string> = {
  'AR-BRELM': 'AR-B816',
  'AR-BRSTD-C': 'AR-BRSTD',
  'AR-PARQ': 'AR-PARQ1',
  'AR-SAND2': 'AR-SAND',
  HONEYCOMB: 'HONEY',
  ESCHER: 'TRIANG',
  CONCRETE: 'AR-CONC',
  SAND: 'AR-SAND',
  // GOST 2.306 section hatching: metal = single 45° lines, non-metal = crossed.
  GOST_METAL: 'ANSI31',
  'GOST_NON-METAL': 'ANSI37',
  GOST_WOOD: 'ANSI31',
};

/** The names the library knows (upper case). */
export function patternNames(): string[] {
  return [...Object.keys(IMPERIAL), ...Object.keys(METRIC)].sort();
}

/**
 * The line families of a named pattern, in DXF form (base point and offset in the hatch's OCS),
 * scaled by `scale` and turned by `angle` degrees; undefined when the name is unknown.
 * `metric`: the drawing is in millimetres (imperial patterns are scaled by 25.4).
 */
export function lookupPattern(name: string, scale: number, angle: number, metric: boolean): HatchPatternLine[] | undefined {
  let key = name.trim().toUpperCase();
  key = ALIASES[key] ?? key;
  let families = IMPERIAL[key];
  let unit = metric ? 25.4 : 1;
  if (!families) {
    families = METRIC[key];
    unit = metric ? 1 : 1 / 25.4;
  }
  if (!families) return undefined;
  return families.map((f) => familyToLine(f, (scale > 0 && Number.isFinite(scale) ? scale : 1) * unit, angle));
}

/** A user-defined pattern (type 0): parallel lines `spacing` apart at `angle`, crossed when `double`. */
export function userPattern(spacing: number, angle: number, double: boolean): HatchPatternLine[] {
  const s = spacing > 0 && Number.isFinite(spacing) ? spacing : 1;
  const out = [familyToLine([0, 0, 0, 0, s], 1, angle)];
  if (double) out.push(familyToLine([90, 0, 0, 0, s], 1, angle));
  return out;
}

function familyToLine(f: Family, scale: number, rotation: number): HatchPatternLine {
  const a = (f[0] ?? 0) + rotation;
  const rad = (a * Math.PI) / 180;
  const c = Math.cos(rad),
    s = Math.sin(rad);
  const along = (f[3] ?? 0) * scale,
    across = (f[4] ?? 0) * scale;
  const r = (rotation * Math.PI) / 180;
  const rc = Math.cos(r),
    rs = Math.sin(r);
  const bx = (f[1] ?? 0) * scale,
    by = (f[2] ?? 0) * scale;
  return {
    angle: a,
    base: [bx * rc - by * rs, bx * rs + by * rc],
    // (along, across) in the line's frame → OCS.
    offset: [along * c - across * s, along * s + across * c],
    dashes: f.slice(5).map((d) => d * scale),
  };
}

const METRIC_UNITS = new Set([4, 5, 6, 7, 12, 13, 14, 15, 16, 17]);

/** Metric drawings use the millimetre versions of the library patterns. */
export function isMetric(d: { header: { measurement?: number; insUnits?: number } }): boolean {
  const h = d.header;
  if (h.measurement === 1) return true;
  if (h.measurement === 0) return false;
  return h.insUnits !== undefined && METRIC_UNITS.has(h.insUnits);
}
