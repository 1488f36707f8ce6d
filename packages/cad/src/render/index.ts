/**
 * Output back ends over the display list (Node): vector PDF (pdfkit), PNG/JPG (@napi-rs/canvas)
 * and SVG. The page geometry and colour modes they share live in `paper.ts` (browser-safe, also
 * used by the viewer); `walk.ts` walks a scene in draw order with viewport clipping.
 *
 * Defaults: PDF pages follow a layout's page setup, else a page the shape of the extents (model
 * space as if plotted to fit A3); PNG/JPG without width or dpi are 2000 px wide for model space
 * and 150 dpi for layouts; with a width the extents fill it with no margin.
 */
import type { Scene } from '../display/types';
import { renderPdf } from './node-pdf';
import { renderRaster } from './node-raster';
import type { RenderOptions } from './options';
import { renderSvg } from './svg';

export type { OutputFormat, RenderOptions } from './options';
export { RASTER_DEFAULT_DPI, RASTER_DEFAULT_WIDTH } from './options';
export type { PaperName, Orientation, ColorMode, Background, Page, PageOptions } from './paper';
export { PAPER_SIZES, scenePage, displayColor, displayRgb, layoutSheet } from './paper';

/** PDF: one page per scene. PNG/JPG/SVG: the first scene (callers pass one scene per file). */
export async function renderScenes(scenes: Scene[], options: RenderOptions): Promise<Uint8Array> {
  switch (options.format) {
    case 'pdf':
      return renderPdf(scenes, options);
    case 'png':
    case 'jpg':
      return renderRaster(scenes[0], options);
    case 'svg':
      return renderSvg(scenes[0], options);
    default:
      throw new Error(`Unknown output format "${String((options as { format: unknown }).format)}"`);
  }
}
