/**
 * The AutoCAD Color Index as RGB. 1..9 are named colours; 10..249 are 24 hues 15° apart, each in
 * five brightnesses (100 %, 65 %, 50 %, 30 %, 15 %) at full and half saturation (even and odd
 * indices); 250..255 are greys. 7 is the foreground colour (black on white paper, white on black).
 */

/** `Style.color` value meaning "the foreground colour": ACI 7, black on white paper, white on black. */
export const FOREGROUND = -1;

const NAMED = [0x000000, 0xff0000, 0xffff00, 0x00ff00, 0x00ffff, 0x0000ff, 0xff00ff, 0xffffff, 0x808080, 0xc0c0c0];
const VALUES = [1, 0.65, 0.5, 0.3, 0.15];
const GREYS = [0x333333, 0x5b5b5b, 0x848484, 0xadadad, 0xd6d6d6, 0xffffff];

function hueRgb(deg: number): [number, number, number] {
  const h = (((deg % 360) + 360) % 360) / 60;
  const x = 1 - Math.abs((h % 2) - 1);
  if (h < 1) return [1, x, 0];
  if (h < 2) return [x, 1, 0];
  if (h < 3) return [0, 1, x];
  if (h < 4) return [0, x, 1];
  if (h < 5) return [x, 0, 1];
  return [1, 0, x];
}

export const ACI_RGB: readonly number[] = (() => {
  const table = new Array<number>(256).fill(0);
  for (let i = 0; i < 10; i++) table[i] = NAMED[i] as number;
  for (let i = 10; i < 250; i++) {
    const [r, g, b] = hueRgb((Math.floor(i / 10) - 1) * 15);
    const v = VALUES[Math.floor((i % 10) / 2)] as number;
    const half = i % 2 === 1;
    const ch = (c: number): number => Math.round(255 * v * (half ? 0.5 + c * 0.5 : c));
    table[i] = (ch(r) << 16) | (ch(g) << 8) | ch(b);
  }
  for (let i = 250; i < 256; i++) table[i] = GREYS[i - 250] as number;
  return table;
})();

/** A display colour (0xRRGGBB or FOREGROUND) for an absolute ACI (1..255). */
export function aciColor(aci: number): number {
  const i = Math.abs(Math.trunc(aci));
  if (i === 7 || i < 1 || i > 255) return FOREGROUND;
  return ACI_RGB[i] as number;
}

/** Nearest ACI (1..255, never 7's twin 255 for white) for a true colour: for writers and palettes. */
export function nearestAci(rgb: number): number {
  const r = (rgb >> 16) & 255,
    g = (rgb >> 8) & 255,
    b = rgb & 255;
  let best = 7,
    bestD = Infinity;
  for (let i = 1; i < 256; i++) {
    const c = i === 7 ? 0xffffff : (ACI_RGB[i] as number);
    const d = (((c >> 16) & 255) - r) ** 2 + (((c >> 8) & 255) - g) ** 2 + ((c & 255) - b) ** 2;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}
