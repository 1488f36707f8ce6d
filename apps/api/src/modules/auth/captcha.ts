import { randomInt } from 'node:crypto';
import { encodeRgbPng } from '@xcad/cad/png';

// The image captcha of spec §7 `imgverify` (defaults 90x40, font 16, length 4, spec §9): a PNG
// drawn from our own stroke font, so it needs no native image library and no font file.

/**
 * Characters a person cannot mistake for one another once rotated and coloured: nothing round
 * enough to pass for 0/O (0, O, Q, D), none of 1/I/L, and neither member of 2/Z, 5/S, 6/G, 8/B.
 * Upper case only, so answers compare case-insensitively (`normalizeCaptchaAnswer`).
 */
export const CAPTCHA_ALPHABET = '23456789ACEFHJKMNPRTUVWXY';

export interface CaptchaOptions {
  width: number;
  height: number;
  /** Wanted cap height in px; smaller when the text would not fit. */
  fontSize: number;
  /** Fixes the drawing's randomness (tests); by default every image gets a fresh seed. */
  seed?: number;
}

type Point = readonly [number, number];
type Polyline = readonly Point[];

export interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** One character as drawn: its strokes in image px and a box holding all of its ink. */
export interface PlacedGlyph {
  character: string;
  strokes: Polyline[];
  box: Box;
}

export interface CaptchaPlan {
  glyphs: PlacedGlyph[];
  strokeWidth: number;
}

export function randomCaptchaText(length: number): string {
  let text = '';
  for (let index = 0; index < length; index += 1) text += CAPTCHA_ALPHABET[randomInt(CAPTCHA_ALPHABET.length)];
  return text;
}

/** What a typed answer is compared as: the alphabet is upper case, people may type lower case. */
export function normalizeCaptchaAnswer(answer: string): string {
  return answer.trim().toUpperCase();
}

// ---- the stroke font ---------------------------------------------------------------------------
// Glyphs live on a 4 x 6 unit grid (x right, y down, cap height 6); each is a list of polylines.

const GLYPH_WIDTH = 4;
const CAP_HEIGHT = 6;

/** Points of an elliptic arc; angles in degrees, counter-clockwise as seen on screen. */
function arc(cx: number, cy: number, rx: number, ry: number, fromDeg: number, toDeg: number): Point[] {
  const steps = Math.max(2, Math.ceil(Math.abs(toDeg - fromDeg) / 15));
  const points: Point[] = [];
  for (let step = 0; step <= steps; step += 1) {
    const angle = ((fromDeg + ((toDeg - fromDeg) * step) / steps) * Math.PI) / 180;
    points.push([cx + rx * Math.cos(angle), cy - ry * Math.sin(angle)]);
  }
  return points;
}

function quadratic(from: Point, control: Point, to: Point): Point[] {
  const points: Point[] = [];
  for (let step = 0; step <= 8; step += 1) {
    const t = step / 8;
    const u = 1 - t;
    points.push([u * u * from[0] + 2 * u * t * control[0] + t * t * to[0], u * u * from[1] + 2 * u * t * control[1] + t * t * to[1]]);
  }
  return points;
}

const GLYPHS: Readonly<Record<string, readonly Polyline[]>> = {
  '2': [[...arc(2, 1.6, 1.8, 1.6, 160, -30), [0.1, 6], [3.9, 6]]],
  '3': [[...arc(2, 1.5, 1.7, 1.5, 150, -90), ...arc(2, 4.45, 1.9, 1.55, 90, -150)]],
  '4': [
    [
      [3, 6],
      [3, 0],
      [0.1, 4.2],
      [3.9, 4.2],
    ],
  ],
  '5': [[[3.7, 0], [0.7, 0], [0.45, 2.85], ...arc(1.95, 4.1, 1.9, 1.9, 125, -140)]],
  '6': [quadratic([3.4, 0.1], [0.3, 0.6], [0.15, 4.2]), arc(2, 4.25, 1.85, 1.75, 180, -180)],
  '7': [
    [
      [0.1, 0],
      [3.9, 0],
      [1.4, 6],
    ],
  ],
  '8': [arc(2, 1.45, 1.5, 1.45, 270, -90), arc(2, 4.4, 1.85, 1.6, 90, -270)],
  '9': [arc(2, 1.8, 1.85, 1.75, 0, 360), quadratic([3.85, 1.8], [3.8, 5.3], [0.6, 5.9])],
  A: [
    [
      [0.1, 6],
      [2, 0],
      [3.9, 6],
    ],
    [
      [0.75, 4],
      [3.25, 4],
    ],
  ],
  C: [arc(2.15, 3, 2.05, 3, 50, 310)],
  E: [
    [
      [3.7, 0],
      [0.3, 0],
      [0.3, 6],
      [3.7, 6],
    ],
    [
      [0.3, 3],
      [3, 3],
    ],
  ],
  F: [
    [
      [3.8, 0],
      [0.3, 0],
      [0.3, 6],
    ],
    [
      [0.3, 3],
      [3.1, 3],
    ],
  ],
  H: [
    [
      [0.3, 0],
      [0.3, 6],
    ],
    [
      [3.7, 0],
      [3.7, 6],
    ],
    [
      [0.3, 3],
      [3.7, 3],
    ],
  ],
  J: [[[1.3, 0], [3.3, 0], [3.3, 4.3], ...arc(1.85, 4.3, 1.45, 1.7, 0, -180)]],
  K: [
    [
      [0.3, 0],
      [0.3, 6],
    ],
    [
      [3.8, 0],
      [0.3, 3.7],
    ],
    [
      [1.45, 2.55],
      [3.9, 6],
    ],
  ],
  M: [
    [
      [0.15, 6],
      [0.45, 0],
      [2, 3.9],
      [3.55, 0],
      [3.85, 6],
    ],
  ],
  N: [
    [
      [0.3, 6],
      [0.3, 0],
      [3.7, 6],
      [3.7, 0],
    ],
  ],
  P: [[[0.3, 6], [0.3, 0], [2.1, 0], ...arc(2.1, 1.6, 1.7, 1.6, 90, -90), [0.3, 3.2]]],
  R: [
    [[0.3, 6], [0.3, 0], [2.1, 0], ...arc(2.1, 1.6, 1.7, 1.6, 90, -90), [0.3, 3.2]],
    [
      [1.9, 3.2],
      [3.9, 6],
    ],
  ],
  T: [
    [
      [0, 0],
      [4, 0],
    ],
    [
      [2, 0],
      [2, 6],
    ],
  ],
  U: [[[0.3, 0], [0.3, 4.1], ...arc(2, 4.1, 1.7, 1.9, 180, 360), [3.7, 0]]],
  V: [
    [
      [0.05, 0],
      [2, 6],
      [3.95, 0],
    ],
  ],
  W: [
    [
      [0, 0],
      [0.9, 6],
      [2, 1.8],
      [3.1, 6],
      [4, 0],
    ],
  ],
  X: [
    [
      [0.2, 0],
      [3.8, 6],
    ],
    [
      [3.8, 0],
      [0.2, 6],
    ],
  ],
  Y: [
    [
      [0.05, 0],
      [2, 3.1],
      [3.95, 0],
    ],
    [
      [2, 3.1],
      [2, 6],
    ],
  ],
};

/** The stroke font's polylines for one character, in grid units (4 wide, cap height 6). */
export function glyphStrokes(character: string): readonly Polyline[] {
  const strokes = GLYPHS[character];
  if (!strokes) throw new Error(`no captcha glyph for ${JSON.stringify(character)}`);
  return strokes;
}

// ---- randomness --------------------------------------------------------------------------------

type Random = () => number;

/** sfc32: the drawing's jitter needs speed, not secrecy; the secret is the text (crypto.randomInt). */
function seededRandom(seed: number): Random {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let warmUp = 0; warmUp < 12; warmUp += 1) next();
  return next;
}

function between(random: Random, low: number, high: number): number {
  return low + (high - low) * random();
}

type Rgb = [number, number, number];

function luminance([r, g, b]: Rgb): number {
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

/** A random hue darkened to exactly `target` luminance (its channels start at or above it). */
function colourDarkenedTo(random: Random, target: number): Rgb {
  const base: Rgb = [between(random, target, 255), between(random, target, 255), between(random, target, 255)];
  const factor = target / luminance(base);
  return [base[0] * factor, base[1] * factor, base[2] * factor];
}

/** A random hue lightened to exactly `target` luminance (its channels start at or below it). */
function colourLightenedTo(random: Random, target: number): Rgb {
  const base: Rgb = [between(random, 0, target), between(random, 0, target), between(random, 0, target)];
  const factor = (255 - target) / (255 - luminance(base));
  return [255 - (255 - base[0]) * factor, 255 - (255 - base[1]) * factor, 255 - (255 - base[2]) * factor];
}

// Luminance bands (BT.601 luma) keep the text the darkest thing in the picture, so people read it
// at a glance, with the curves in the middle and the dots and background light.
/** The lightest a glyph's colour gets; curves, dots and background are always lighter. */
export const GLYPH_MAX_LUMINANCE = 80;
const GLYPH_LUMINANCE: readonly [number, number] = [25, GLYPH_MAX_LUMINANCE];
const CURVE_LUMINANCE: readonly [number, number] = [110, 150];
const DOT_LUMINANCE: readonly [number, number] = [140, 205];
const BACKGROUND_LUMINANCE: readonly [number, number] = [218, 248];

// ---- layout ------------------------------------------------------------------------------------

const MAX_ROTATION = (25 * Math.PI) / 180;
const MIN_SCALE = 0.9;
const MAX_SCALE = 1.1;
const STROKE_PER_UNIT = 0.75;
const MIN_STROKE = 1.6;
/** Kept clear at every image edge, in px. */
const MARGIN = 2;

function strokeWidthFor(unit: number): number {
  return Math.max(MIN_STROKE, STROKE_PER_UNIT * unit);
}

/**
 * The largest px-per-unit at which `units` of glyph outline plus `glyphs` strokes' own width (and
 * a px of anti-aliasing each) fit in `room` px.
 */
function largestUnitFitting(units: number, glyphs: number, room: number): number {
  const withScaledStroke = (room - glyphs) / (units + STROKE_PER_UNIT * glyphs);
  if (STROKE_PER_UNIT * withScaledStroke >= MIN_STROKE) return withScaledStroke;
  return (room - glyphs * (MIN_STROKE + 1)) / units;
}

/**
 * Rotates and scales each glyph at random, then sizes the text from the glyphs' real outlines:
 * the cap height is `fontSize` unless the text would not fit, in which case all glyphs shrink
 * together. Boxes never overlap and stay `MARGIN` px inside the image.
 */
function planGlyphs(text: string, options: CaptchaOptions, random: Random): CaptchaPlan {
  const shapes = [...text].map((character) => {
    const angle = between(random, -MAX_ROTATION, MAX_ROTATION);
    const scale = between(random, MIN_SCALE, MAX_SCALE);
    const cos = Math.cos(angle) * scale;
    const sin = Math.sin(angle) * scale;
    const strokes = glyphStrokes(character).map((stroke) =>
      stroke.map(([u, v]): Point => {
        const dx = u - GLYPH_WIDTH / 2;
        const dy = v - CAP_HEIGHT / 2;
        return [dx * cos - dy * sin, dx * sin + dy * cos];
      }),
    );
    const points = strokes.flat();
    return {
      character,
      strokes,
      minX: Math.min(...points.map(([x]) => x)),
      maxX: Math.max(...points.map(([x]) => x)),
      minY: Math.min(...points.map(([, y]) => y)),
      maxY: Math.max(...points.map(([, y]) => y)),
      gapAfter: between(random, 0.15, 0.5),
      jitter: between(random, -1, 1),
    };
  });
  const roomHeight = options.height - 2 * MARGIN;
  const gapUnits = shapes.slice(0, -1).reduce((sum, shape) => sum + shape.gapAfter, 0);
  const widthUnits = shapes.reduce((sum, shape) => sum + shape.maxX - shape.minX, gapUnits);
  const heightUnits = Math.max(...shapes.map((shape) => shape.maxY - shape.minY));
  const unit = Math.min(
    options.fontSize / CAP_HEIGHT,
    largestUnitFitting(widthUnits, shapes.length, options.width - 2 * MARGIN),
    largestUnitFitting(heightUnits, 1, roomHeight),
  );
  const strokeWidth = strokeWidthFor(unit);
  // How far ink reaches past a stroke's centre line: half the stroke and the anti-aliased edge.
  const reach = strokeWidth / 2 + 0.5;
  let left = (options.width - (widthUnits * unit + 2 * reach * shapes.length)) / 2;
  const glyphs = shapes.map((shape): PlacedGlyph => {
    const width = (shape.maxX - shape.minX) * unit + 2 * reach;
    const height = (shape.maxY - shape.minY) * unit + 2 * reach;
    // Vertical jitter up to 12 % of the cap height, within whatever room the box leaves.
    const slack = Math.max(0, Math.min(0.12 * CAP_HEIGHT * unit, (roomHeight - height) / 2));
    const top = (options.height - height) / 2 + shape.jitter * slack;
    const originX = left + reach - shape.minX * unit;
    const originY = top + reach - shape.minY * unit;
    const box = { left, right: left + width, top, bottom: top + height };
    left += width + shape.gapAfter * unit;
    return {
      character: shape.character,
      strokes: shape.strokes.map((stroke) => stroke.map(([x, y]): Point => [originX + x * unit, originY + y * unit])),
      box,
    };
  });
  return { glyphs, strokeWidth };
}

/** Where `renderCaptcha` with the same seed puts each glyph. */
export function planCaptcha(text: string, options: CaptchaOptions & { seed: number }): CaptchaPlan {
  return planGlyphs(text, options, seededRandom(options.seed));
}

// ---- raster ------------------------------------------------------------------------------------

/** RGB rows, each preceded by its PNG filter byte (0, none), ready for deflate. */
class Canvas {
  readonly stride: number;
  readonly pixels: Uint8Array;
  /** Coverage of the shape being drawn, so overlapping segments of one stroke do not darken twice. */
  private readonly coverage: Float32Array;
  private dirtyLeft = 0;
  private dirtyTop = 0;
  private dirtyRight = -1;
  private dirtyBottom = -1;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.stride = 1 + 3 * width;
    this.pixels = new Uint8Array(this.stride * height);
    this.coverage = new Float32Array(width * height);
  }

  fillGradient(left: Rgb, right: Rgb): void {
    const span = Math.max(1, this.width - 1);
    for (let x = 0; x < this.width; x += 1) {
      const t = x / span;
      const r = Math.round(left[0] + (right[0] - left[0]) * t);
      const g = Math.round(left[1] + (right[1] - left[1]) * t);
      const b = Math.round(left[2] + (right[2] - left[2]) * t);
      for (let y = 0; y < this.height; y += 1) {
        const at = y * this.stride + 1 + 3 * x;
        this.pixels[at] = r;
        this.pixels[at + 1] = g;
        this.pixels[at + 2] = b;
      }
    }
  }

  blendPixel(x: number, y: number, [r, g, b]: Rgb, alpha: number): void {
    const at = y * this.stride + 1 + 3 * x;
    const pixels = this.pixels;
    pixels[at] = Math.round(pixels[at]! + (r - pixels[at]!) * alpha);
    pixels[at + 1] = Math.round(pixels[at + 1]! + (g - pixels[at + 1]!) * alpha);
    pixels[at + 2] = Math.round(pixels[at + 2]! + (b - pixels[at + 2]!) * alpha);
  }

  /** Adds a round-capped segment to the pending shape; coverage falls off over one px (anti-aliasing). */
  segment(x1: number, y1: number, x2: number, y2: number, halfWidth: number): void {
    const reach = halfWidth + 0.5;
    const left = Math.max(0, Math.floor(Math.min(x1, x2) - reach));
    const right = Math.min(this.width - 1, Math.ceil(Math.max(x1, x2) + reach));
    const top = Math.max(0, Math.floor(Math.min(y1, y2) - reach));
    const bottom = Math.min(this.height - 1, Math.ceil(Math.max(y1, y2) + reach));
    if (left > right || top > bottom) return;
    this.extendDirty(left, top, right, bottom);
    const dx = x2 - x1;
    const dy = y2 - y1;
    const lengthSquared = dx * dx + dy * dy;
    for (let y = top; y <= bottom; y += 1) {
      const py = y + 0.5 - y1;
      for (let x = left; x <= right; x += 1) {
        const px = x + 0.5 - x1;
        const t = lengthSquared === 0 ? 0 : Math.min(1, Math.max(0, (px * dx + py * dy) / lengthSquared));
        const ex = px - t * dx;
        const ey = py - t * dy;
        const cover = reach - Math.sqrt(ex * ex + ey * ey);
        if (cover <= 0) continue;
        const at = y * this.width + x;
        const value = cover > 1 ? 1 : cover;
        if (value > this.coverage[at]!) this.coverage[at] = value;
      }
    }
  }

  polyline(points: ReadonlyArray<Point>, halfWidth: number): void {
    for (let index = 1; index < points.length; index += 1) {
      const from = points[index - 1]!;
      const to = points[index]!;
      this.segment(from[0], from[1], to[0], to[1], halfWidth);
    }
  }

  /** Paints the pending shape in one colour and clears it. */
  fillShape(colour: Rgb): void {
    for (let y = this.dirtyTop; y <= this.dirtyBottom; y += 1) {
      for (let x = this.dirtyLeft; x <= this.dirtyRight; x += 1) {
        const at = y * this.width + x;
        const alpha = this.coverage[at]!;
        if (alpha === 0) continue;
        this.blendPixel(x, y, colour, alpha);
        this.coverage[at] = 0;
      }
    }
    this.dirtyLeft = this.width;
    this.dirtyTop = this.height;
    this.dirtyRight = -1;
    this.dirtyBottom = -1;
  }

  private extendDirty(left: number, top: number, right: number, bottom: number): void {
    if (this.dirtyRight < 0) {
      this.dirtyLeft = left;
      this.dirtyTop = top;
      this.dirtyRight = right;
      this.dirtyBottom = bottom;
      return;
    }
    this.dirtyLeft = Math.min(this.dirtyLeft, left);
    this.dirtyTop = Math.min(this.dirtyTop, top);
    this.dirtyRight = Math.max(this.dirtyRight, right);
    this.dirtyBottom = Math.max(this.dirtyBottom, bottom);
  }
}

/** A thin cubic curve across the text, from before the first glyph to past the last. */
function drawInterferenceCurve(canvas: Canvas, random: Random, plan: CaptchaPlan): void {
  const boxes = plan.glyphs.map((glyph) => glyph.box);
  const bandTop = Math.min(...boxes.map((box) => box.top)) + plan.strokeWidth;
  const bandBottom = Math.max(...boxes.map((box) => box.bottom)) - plan.strokeWidth;
  const x0 = boxes[0]!.left - between(random, 0, 6);
  const x3 = boxes.at(-1)!.right + between(random, 0, 6);
  const y = (): number => between(random, bandTop, bandBottom);
  const [y0, y1, y2, y3] = [y(), y(), y(), y()];
  const x1 = x0 + (x3 - x0) * between(random, 0.2, 0.45);
  const x2 = x0 + (x3 - x0) * between(random, 0.55, 0.8);
  const points: Point[] = [];
  const steps = Math.max(8, Math.ceil((x3 - x0) / 4));
  for (let step = 0; step <= steps; step += 1) {
    const t = step / steps;
    const u = 1 - t;
    const a = u * u * u;
    const b = 3 * u * u * t;
    const c = 3 * u * t * t;
    const d = t * t * t;
    points.push([a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3]);
  }
  // Thinner than the glyphs' strokes, so people see through it while OCR segmentation trips on it.
  canvas.polyline(points, Math.max(0.35, plan.strokeWidth * between(random, 0.2, 0.3)));
  canvas.fillShape(colourDarkenedTo(random, between(random, ...CURVE_LUMINANCE)));
}

function encodePng(canvas: Canvas): Buffer {
  return encodeRgbPng(canvas.width, canvas.height, canvas.pixels);
}

// ---- the captcha -------------------------------------------------------------------------------

/** A PNG showing `text` (characters of CAPTCHA_ALPHABET), distorted enough to slow down OCR. */
export function renderCaptcha(text: string, options: CaptchaOptions): Buffer {
  const random = seededRandom(options.seed ?? randomInt(0x1_0000_0000));
  const plan = planGlyphs(text, options, random);
  const canvas = new Canvas(options.width, options.height);

  canvas.fillGradient(
    colourLightenedTo(random, between(random, ...BACKGROUND_LUMINANCE)),
    colourLightenedTo(random, between(random, ...BACKGROUND_LUMINANCE)),
  );
  const dotCount = Math.round((canvas.width * canvas.height) / 28);
  for (let dot = 0; dot < dotCount; dot += 1) {
    const x = Math.floor(random() * canvas.width);
    const y = Math.floor(random() * canvas.height);
    canvas.blendPixel(x, y, colourLightenedTo(random, between(random, ...DOT_LUMINANCE)), between(random, 0.5, 0.9));
  }
  for (const glyph of plan.glyphs) {
    for (const stroke of glyph.strokes) canvas.polyline(stroke, plan.strokeWidth / 2);
    canvas.fillShape(colourDarkenedTo(random, between(random, ...GLYPH_LUMINANCE)));
  }
  const curveCount = random() < 0.5 ? 2 : 3;
  for (let curve = 0; curve < curveCount; curve += 1) drawInterferenceCurve(canvas, random, plan);

  return encodePng(canvas);
}
