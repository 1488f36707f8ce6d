/** Options of the output back ends (browser-safe; `index.ts` re-exports them). */
import type { EngineLimits } from '../limits';
import type { Background, ColorMode, Orientation, PaperName } from './paper';

export type OutputFormat = 'pdf' | 'png' | 'jpg' | 'svg';
export type { PaperName };

export interface RenderOptions {
  format: OutputFormat;
  /** PDF: paper size; 'fit' = a page the size of the drawing's extents (plus a small margin). Default: a layout's own page setup when it has one, else 'fit'. */
  paper?: PaperName | 'fit';
  /** Default auto: landscape when the drawing is wider than tall. */
  orientation?: Orientation;
  /** mono: everything black on white (white on black background). */
  color?: ColorMode;
  /** PNG/JPG: output width in px; the extents fill the width with NO margin; height follows the aspect ratio. */
  width?: number;
  /** PNG/JPG: dots per inch of the paper (layouts: their paper size; model: the extents as if plotted to fit A3 or the chosen paper). */
  dpi?: number;
  /** Default white. */
  background?: Background;
  /** JPG quality 0..100, default 90. */
  quality?: number;
  /** Draw lineweights (default true for PDF and for PNG/JPG with dpi; with width, lines are 1 px unless the weight is thicker). */
  lineweights?: boolean;
  /** PDF: compress the content streams (default true; tests turn it off to read the operators). */
  compress?: boolean;
  /** The conversion's budgets (limits.ts); the raster back end checks `pixels`. */
  limits?: Partial<EngineLimits>;
}

/** PNG/JPG without width or dpi: model space this many pixels wide, layouts at RASTER_DEFAULT_DPI. */
export const RASTER_DEFAULT_WIDTH = 2000;
export const RASTER_DEFAULT_DPI = 150;
/** The largest raster side, in pixels. */
export const RASTER_MAX_SIDE = 32_767;
