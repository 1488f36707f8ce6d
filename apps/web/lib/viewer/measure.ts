// The measure tool's arithmetic (decision 0021, FACTS.md "Measuring: distance, area, angle,
// coordinates"): results in drawing units, named by the drawing's $INSUNITS.

export type MeasureMode = 'distance' | 'area' | 'angle' | 'point';

export type Point = readonly [number, number];

/** $INSUNITS → the unit's symbol ('' for unitless drawings). */
const UNIT_SYMBOLS: Readonly<Record<number, string>> = {
  1: 'in',
  2: 'ft',
  3: 'mi',
  4: 'mm',
  5: 'cm',
  6: 'm',
  7: 'km',
  8: 'µin',
  9: 'mil',
  10: 'yd',
  11: 'Å',
  12: 'nm',
  13: 'µm',
  14: 'dm',
  15: 'dam',
  16: 'hm',
  17: 'Gm',
  18: 'AU',
  19: 'ly',
  20: 'pc',
  21: 'ft',
};

/** Metres per unit, for the metric units whose areas read better in m² as well. */
const METRES: Readonly<Record<number, number>> = { 4: 1e-3, 5: 1e-2, 6: 1, 14: 0.1 };

export function unitSymbol(insunits: number): string {
  return UNIT_SYMBOLS[insunits] ?? '';
}

export function distance(a: Point, b: Point): { length: number; dx: number; dy: number } {
  const dx = b[0] - a[0],
    dy = b[1] - a[1];
  return { length: Math.hypot(dx, dy), dx, dy };
}

/** Area (shoelace, always positive) and perimeter of the closed polygon through `points`. */
export function polygonArea(points: readonly Point[]): { area: number; perimeter: number } {
  let twice = 0,
    perimeter = 0;
  for (let i = 0; i < points.length; i++) {
    const p = points[i] as Point;
    const q = points[(i + 1) % points.length] as Point;
    twice += p[0] * q[1] - q[0] * p[1];
    perimeter += Math.hypot(q[0] - p[0], q[1] - p[1]);
  }
  // Fewer than three points are no polygon yet.
  return points.length < 3 ? { area: 0, perimeter: 0 } : { area: Math.abs(twice) / 2, perimeter };
}

/** The angle at `vertex` between the arms to `a` and `b`, degrees 0..180. */
export function angleAt(a: Point, vertex: Point, b: Point): number {
  const ux = a[0] - vertex[0],
    uy = a[1] - vertex[1];
  const vx = b[0] - vertex[0],
    vy = b[1] - vertex[1];
  if ((ux === 0 && uy === 0) || (vx === 0 && vy === 0)) return 0;
  return (Math.abs(Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)) * 180) / Math.PI;
}

/** The direction of a segment, degrees counter-clockwise from +X, 0..360 (as CAD reports it). */
export function direction(a: Point, b: Point): number {
  const deg = (Math.atan2(b[1] - a[1], b[0] - a[0]) * 180) / Math.PI;
  return deg < 0 ? deg + 360 : deg;
}

/** Decimals for a value: about six significant digits, at most six decimals. */
export function decimalsFor(value: number): number {
  const v = Math.abs(value);
  if (!(v > 0) || !Number.isFinite(v)) return 2;
  return Math.max(0, Math.min(6, 5 - Math.floor(Math.log10(v))));
}

export function formatNumber(value: number, decimals = decimalsFor(value)): string {
  if (!Number.isFinite(value)) return '—';
  const fixed = value.toFixed(decimals);
  const [whole = '', fraction] = fixed.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** A length with its unit ('500.000 mm', '12.5000' when unitless). */
export function formatLength(value: number, insunits: number): string {
  const unit = unitSymbol(insunits);
  return unit ? `${formatNumber(value)} ${unit}` : formatNumber(value);
}

/** An area with its unit, plus m² for metric drawings in mm/cm/dm ('1,250,000.00 mm² (1.25 m²)'). */
export function formatArea(value: number, insunits: number): string {
  const unit = unitSymbol(insunits);
  if (!unit) return formatNumber(value);
  const base = `${formatNumber(value)} ${unit}²`;
  const metres = METRES[insunits];
  if (metres === undefined || metres === 1) return base;
  return `${base} (${formatNumber(value * metres * metres)} m²)`;
}

export function formatAngle(degrees: number): string {
  return `${formatNumber(degrees, 3)}°`;
}
