/**
 * Ink comparison of two renders of one drawing (golden-image tests, the quality bench against
 * ezdxf): each image is binarised against its own background (non-background = ink), cropped to
 * its ink bounding box, scaled to a common width keeping any ink a source pixel had (max pooling),
 * then precision and recall are counted with a tolerance of a few pixels (each side dilated before
 * matching the other), so antialiasing, hinting and line-width differences do not count.
 */

export interface RgbaImage {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel, row by row. */
  data: Uint8Array | Uint8ClampedArray;
}

export interface InkMask {
  width: number;
  height: number;
  /** 1 = ink. */
  bits: Uint8Array;
}

export interface InkScore {
  f1: number;
  precision: number;
  recall: number;
  /** Ink pixels in each mask after scaling. */
  inkA: number;
  inkB: number;
}

/**
 * The background colour: the most common colour over the whole image (sampled). Not the border's:
 * a render with no margin (`--width`) has its outermost lines on the border.
 */
function backgroundOf(img: RgbaImage): [number, number, number] {
  const counts = new Map<number, number>();
  const d = img.data;
  const n = img.width * img.height;
  const step = Math.max(1, Math.floor(n / 200_000));
  for (let p = 0; p < n; p += step) {
    const i = p * 4;
    // A transparent pixel is the page: count it as white.
    const key = (d[i + 3] ?? 255) < 128 ? 0xffffff : ((d[i] ?? 0) << 16) | ((d[i + 1] ?? 0) << 8) | (d[i + 2] ?? 0);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  let best = 0xffffff;
  let bestCount = -1;
  for (const [key, c] of counts) if (c > bestCount) [best, bestCount] = [key, c];
  return [(best >> 16) & 255, (best >> 8) & 255, best & 255];
}

/**
 * Ink = any channel more than `threshold` away from the background (transparent = background). The
 * background is the image's most common colour unless given (a render known to be on white whose
 * solid fills cover more than its paper).
 */
export function inkMask(img: RgbaImage, threshold = 40, background?: readonly [number, number, number]): InkMask {
  const [br, bg, bb] = background ?? backgroundOf(img);
  const n = img.width * img.height;
  const bits = new Uint8Array(n);
  const d = img.data;
  for (let p = 0, i = 0; p < n; p++, i += 4) {
    const a = d[i + 3] ?? 255;
    if (a < 128) continue;
    const dr = Math.abs((d[i] ?? 0) - br);
    const dg = Math.abs((d[i + 1] ?? 0) - bg);
    const db = Math.abs((d[i + 2] ?? 0) - bb);
    if (dr > threshold || dg > threshold || db > threshold) bits[p] = 1;
  }
  return { width: img.width, height: img.height, bits };
}

export function inkCount(mask: InkMask): number {
  let n = 0;
  for (const b of mask.bits) n += b;
  return n;
}

/**
 * The ink bounding box, or null when there is no ink. `trim` (0..0.01) leaves out that fraction of
 * the ink on each side, so a few stray pixels far from the drawing do not set the box.
 */
export function inkBounds(mask: InkMask, trim = 0): { x0: number; y0: number; x1: number; y1: number } | null {
  const cols = new Float64Array(mask.width);
  const rows = new Float64Array(mask.height);
  let total = 0;
  for (let y = 0; y < mask.height; y++) {
    const row = y * mask.width;
    for (let x = 0; x < mask.width; x++) {
      if (!mask.bits[row + x]) continue;
      cols[x] = (cols[x] ?? 0) + 1;
      rows[y] = (rows[y] ?? 0) + 1;
      total++;
    }
  }
  if (total === 0) return null;
  const cut = total * trim;
  const first = (h: Float64Array): number => {
    let acc = 0;
    for (let i = 0; i < h.length; i++) if ((acc += h[i] ?? 0) > cut) return i;
    return 0;
  };
  const last = (h: Float64Array): number => {
    let acc = 0;
    for (let i = h.length - 1; i >= 0; i--) if ((acc += h[i] ?? 0) > cut) return i;
    return h.length - 1;
  };
  return { x0: first(cols), y0: first(rows), x1: last(cols), y1: last(rows) };
}

/**
 * Crops to the ink bounding box and scales to `width` pixels wide (height keeps the aspect,
 * unless `height` is given). Downscaling keeps a target pixel as ink when any source pixel in it is.
 */
export function cropAndScale(mask: InkMask, width: number, height?: number, trim = 0): InkMask | null {
  const box = inkBounds(mask, trim);
  if (!box) return null;
  const cw = box.x1 - box.x0 + 1;
  const ch = box.y1 - box.y0 + 1;
  const h = height ?? Math.max(1, Math.round((ch * width) / cw));
  const sx = width / cw;
  const sy = h / ch;
  const bits = new Uint8Array(width * h);
  if (sx <= 1 && sy <= 1) {
    for (let y = box.y0; y <= box.y1; y++) {
      const ty = Math.min(h - 1, Math.floor((y - box.y0) * sy));
      const src = y * mask.width;
      for (let x = box.x0; x <= box.x1; x++)
        if (mask.bits[src + x]) bits[ty * width + Math.min(width - 1, Math.floor((x - box.x0) * sx))] = 1;
    }
  } else {
    // Upscaling in at least one direction: each target pixel looks at the source pixels it covers.
    for (let ty = 0; ty < h; ty++) {
      const ya = box.y0 + Math.floor(ty / sy);
      const yb = Math.max(ya, box.y0 + Math.ceil((ty + 1) / sy) - 1);
      for (let tx = 0; tx < width; tx++) {
        const xa = box.x0 + Math.floor(tx / sx);
        const xb = Math.max(xa, box.x0 + Math.ceil((tx + 1) / sx) - 1);
        let ink = 0;
        for (let y = ya; y <= Math.min(yb, box.y1) && !ink; y++)
          for (let x = xa; x <= Math.min(xb, box.x1); x++)
            if (mask.bits[y * mask.width + x]) {
              ink = 1;
              break;
            }
        bits[ty * width + tx] = ink;
      }
    }
  }
  return { width, height: h, bits };
}

/** Square dilation by `radius` pixels (separable). */
function dilate(mask: InkMask, radius: number): InkMask {
  if (radius <= 0) return mask;
  const { width: w, height: h } = mask;
  const tmp = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      if (!mask.bits[row + x]) continue;
      for (let k = Math.max(0, x - radius); k <= Math.min(w - 1, x + radius); k++) tmp[row + k] = 1;
    }
  }
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      if (!tmp[row + x]) continue;
      for (let k = Math.max(0, y - radius); k <= Math.min(h - 1, y + radius); k++) out[k * w + x] = 1;
    }
  }
  return { width: w, height: h, bits: out };
}

/** F1 of ink overlap between two masks of the same size, each side allowed `tolerance` pixels. */
function compareMasks(a: InkMask, b: InkMask, tolerance: number): InkScore {
  if (a.width !== b.width || a.height !== b.height) throw new Error('compareMasks: sizes differ');
  const da = dilate(a, tolerance);
  const db = dilate(b, tolerance);
  let inkA = 0,
    inkB = 0,
    hitA = 0,
    hitB = 0;
  for (let i = 0; i < a.bits.length; i++) {
    if (a.bits[i]) {
      inkA++;
      if (db.bits[i]) hitA++;
    }
    if (b.bits[i]) {
      inkB++;
      if (da.bits[i]) hitB++;
    }
  }
  const precision = inkA ? hitA / inkA : 0;
  const recall = inkB ? hitB / inkB : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { f1, precision, recall, inkA, inkB };
}

/**
 * Compares two renders: `a` (ours) against `b` (the reference). Both are cropped to their ink and
 * scaled to `width`; the shorter is padded so both have the same height. Null when either has no ink.
 * `background` fixes the paper's colour for both (a drawing mostly covered by a solid fill would
 * otherwise take the fill for the paper). `crop: false` is for two renders of the same view (same extents, same pixel width, as the save-as
 * bench draws a drawing and its converted copy): compared pixel for pixel as drawn, so ink lost at
 * the edge of one does not rescale the other; `width` and `trim` do not apply.
 */
export function compareInk(
  a: RgbaImage,
  b: RgbaImage,
  options: {
    width?: number;
    tolerance?: number;
    trim?: number;
    aligned?: boolean;
    crop?: boolean;
    /** Both images' background (default: each image's most common colour). */
    background?: readonly [number, number, number];
  } = {},
): (InkScore & { aligned?: InkScore }) | null {
  const width = options.width ?? 1024;
  if (options.crop === false && a.width !== b.width) throw new Error('compareInk: uncropped renders must have the same width');
  const prepare = (img: RgbaImage): InkMask | null => {
    if (options.crop !== false) return cropAndScale(inkMask(img, undefined, options.background), width, undefined, options.trim);
    const m = inkMask(img, undefined, options.background);
    return inkCount(m) ? m : null;
  };
  const ma = prepare(a);
  const mb = prepare(b);
  if (!ma || !mb) return null;
  const h = Math.max(ma.height, mb.height);
  const [pa, pb] = [padTo(ma, h), padTo(mb, h)];
  const score = compareMasks(pa, pb, options.tolerance ?? 2);
  return options.aligned ? { ...score, aligned: alignedScore(pa, pb, options.tolerance ?? 2) } : score;
}

function padTo(m: InkMask, height: number): InkMask {
  if (m.height === height) return m;
  const bits = new Uint8Array(m.width * height);
  bits.set(m.bits);
  return { width: m.width, height, bits };
}

/** 1-D ink profile (ink pixels per column, or per row), smoothed by a box of ±`r`. */
function profile(m: InkMask, axis: 'x' | 'y', r: number): Float64Array {
  const n = axis === 'x' ? m.width : m.height;
  const raw = new Float64Array(n);
  for (let y = 0; y < m.height; y++)
    for (let x = 0; x < m.width; x++) if (m.bits[y * m.width + x]) raw[axis === 'x' ? x : y] = (raw[axis === 'x' ? x : y] ?? 0) + 1;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let k = Math.max(0, i - r); k <= Math.min(n - 1, i + r); k++) s += raw[k] ?? 0;
    out[i] = s;
  }
  return out;
}

/** The scale and shift (a → b) that best overlay two ink profiles, within ±`maxScale` and ±`maxShift` px. */
function bestFit(pa: Float64Array, pb: Float64Array, maxScale: number, maxShift: number): { scale: number; shift: number } {
  let best = { scale: 1, shift: 0 };
  let bestScore = -1;
  for (let scale = 1 - maxScale; scale <= 1 + maxScale + 1e-9; scale += 0.004) {
    for (let shift = -maxShift; shift <= maxShift; shift++) {
      let score = 0;
      for (let i = 0; i < pa.length; i++) {
        const v = pa[i] ?? 0;
        if (!v) continue;
        const j = Math.round(i * scale + shift);
        if (j >= 0 && j < pb.length) score += v * (pb[j] ?? 0);
      }
      if (score > bestScore) [bestScore, best] = [score, { scale, shift }];
    }
  }
  return best;
}

/**
 * F1 after registering `a` onto `b` (both cropped and scaled to the same width): the x and y
 * scale (±8%) and shift (±5% of the width) that best overlay the ink profiles. A diagnostic beside
 * the plain F1: when this one is high and the plain one low, the renders differ in placement or
 * extents (a wrapped text, a longer ray), not in what they draw.
 */
function alignedScore(a: InkMask, b: InkMask, tolerance: number): InkScore {
  const shift = Math.round(a.width * 0.05);
  const fx = bestFit(profile(a, 'x', 2), profile(b, 'x', 2), 0.08, shift);
  const fy = bestFit(profile(a, 'y', 2), profile(b, 'y', 2), 0.08, shift);
  const moved = new Uint8Array(b.width * b.height);
  for (let y = 0; y < a.height; y++) {
    const ty = Math.round(y * fy.scale + fy.shift);
    if (ty < 0 || ty >= b.height) continue;
    for (let x = 0; x < a.width; x++) {
      if (!a.bits[y * a.width + x]) continue;
      const tx = Math.round(x * fx.scale + fx.shift);
      if (tx >= 0 && tx < b.width) moved[ty * b.width + tx] = 1;
    }
  }
  const fitted = compareMasks({ width: b.width, height: b.height, bits: moved }, b, tolerance);
  // The profile fit can lock onto a repeating pattern: never report less than no fit at all.
  const h = Math.max(a.height, b.height);
  const plain = compareMasks(padTo(a, h), padTo(b, h), tolerance);
  return fitted.f1 >= plain.f1 ? fitted : plain;
}
