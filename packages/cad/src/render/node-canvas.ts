/**
 * Node only: @napi-rs/canvas, loaded without its scan of the installed fonts.
 *
 * On load the canvas reads the names of every installed font (~30 ms of a `cad convert` run that
 * takes 0.15 s in all). With `DISABLE_SYSTEM_FONTS_LOAD` (read once, when the canvas loads) that
 * scan waits until the first text is drawn or font registered: a drawing without text never pays
 * for it, one with text pays the same as before. Installed fonts are still found by family name
 * and as fallback for characters a font lacks; only `GlobalFonts.families` leaves them out, and
 * the back end does not use it. The variable is set only while the canvas loads, so child
 * processes do not inherit it. A process that loaded the canvas before keeps its list.
 */
import { createRequire } from 'node:module';
import type * as CanvasModule from '@napi-rs/canvas';

function load(): typeof CanvasModule {
  const saved = process.env['DISABLE_SYSTEM_FONTS_LOAD'];
  if (saved === undefined) process.env['DISABLE_SYSTEM_FONTS_LOAD'] = '1';
  try {
    return createRequire(import.meta.url)('@napi-rs/canvas') as typeof CanvasModule;
  } finally {
    if (saved === undefined) delete process.env['DISABLE_SYSTEM_FONTS_LOAD'];
  }
}

export const { GlobalFonts, Path2D, createCanvas, loadImage } = load();
export type CanvasImage = Awaited<ReturnType<typeof CanvasModule.loadImage>>;
