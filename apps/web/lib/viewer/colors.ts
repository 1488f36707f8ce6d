// Colours on screen (decision 0021: correct colours on a dark or a light background). Style colours
// come from the engine as 0xRRGGBB or -1 (ACI 7, the foreground colour): white on a dark
// background, black on a light one. A colour too close to the background to be seen (a white
// line on white, a dark blue on black) is drawn in the foreground colour, as CAD programs do.

export const FOREGROUND = -1;

export type BackgroundName = 'dark' | 'light';

/** Model space backgrounds: the CAD black, and white paper. */
export const BACKGROUNDS: Readonly<Record<BackgroundName, number>> = { dark: 0x000000, light: 0xffffff };
/** Around a layout's sheet. */
export const SURROUNDS: Readonly<Record<BackgroundName, number>> = { dark: 0x2b2f36, light: 0xc9ced6 };

/** Relative luminance-like lightness, 0..1 (Rec. 601 weights: cheap, and enough to pick black or white). */
function lightness(rgb: number): number {
  return (0.299 * ((rgb >> 16) & 255) + 0.587 * ((rgb >> 8) & 255) + 0.114 * (rgb & 255)) / 255;
}

function foregroundOn(background: number): number {
  return lightness(background) < 0.5 ? 0xffffff : 0x000000;
}

/** Per-channel distance under which a colour counts as the background's. */
const NEAR = 0x20;

export function displayColor(color: number, background: number): number {
  const fg = foregroundOn(background);
  if (color < 0) return fg;
  const rgb = color & 0xffffff;
  const near =
    Math.abs(((rgb >> 16) & 255) - ((background >> 16) & 255)) < NEAR &&
    Math.abs(((rgb >> 8) & 255) - ((background >> 8) & 255)) < NEAR &&
    Math.abs((rgb & 255) - (background & 255)) < NEAR;
  return near ? fg : rgb;
}

export function cssHex(rgb: number): string {
  return `#${(rgb & 0xffffff).toString(16).padStart(6, '0')}`;
}

/** A layer's swatch in the panel (the panel is light: ACI 7 shows as black, white as white with a border). */
export function swatchCss(color: number): string {
  return color < 0 ? '#000000' : cssHex(color);
}
