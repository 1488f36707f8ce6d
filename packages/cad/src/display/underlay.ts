/**
 * PDFUNDERLAY (and DWF / DGN underlays): the page's vectors when the conversion was given the file
 * (underlay-files.ts puts them in a block, drawn as a reference clipped like an XCLIP), and the
 * frame: the clip boundary when clipping is on, else the page's edge. Without the file and without a
 * clip boundary nothing tells the page's size: the underlay is reported as not drawn.
 */
import type { InsertEntity, UnderlayEntity } from '../model';
import { multiply, rotationZ, translation, type Mat } from '../geom/matrix';
import type { DrawContext } from './context';

/** The frame in the underlay's own coordinates (inches of the page), or null when unknown. */
function frameOf(e: UnderlayEntity): [number, number][] | null {
  const b = e.clipBoundary;
  if (e.flags & 1 && b.length === 2) {
    const [[x0, y0], [x1, y1]] = b as [[number, number], [number, number]];
    return [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
    ];
  }
  if (e.flags & 1 && b.length >= 3) return b;
  if (e.content)
    return [
      [0, 0],
      [e.content.width, 0],
      [e.content.width, e.content.height],
      [0, e.content.height],
    ];
  return null;
}

/** What the builder adds to the DrawContext that this handler uses (handlers.ts's BuildContext has it). */
interface PlacingContext extends DrawContext {
  drawInsert(e: InsertEntity): void;
  count(type: string): void;
  skip(type: string): void;
}

export function drawUnderlay(e: UnderlayEntity, ctx: PlacingContext): boolean {
  // Flag 2 off: the underlay is hidden, as AutoCAD hides it.
  if (!(e.flags & 2)) {
    ctx.count(e.dxfType);
    return false;
  }
  const frame = frameOf(e);
  const name = e.fileName || e.dxfType;
  if (e.content) {
    const {
      type: _t,
      dxfType: _d,
      flags: _f,
      contrast: _c,
      fade: _fa,
      clipBoundary: _b,
      defHandle: _h,
      fileName: _n,
      page: _p,
      content,
      ...base
    } = e;
    // The block holds the page in millimetres; the underlay's units are inches.
    const k = 1 / 25.4;
    const ref: InsertEntity = {
      ...base,
      type: 'INSERT',
      name: content.block,
      scale: [e.scale[0] * k, e.scale[1] * k, e.scale[2] * k],
      columnCount: 1,
      rowCount: 1,
      columnSpacing: 0,
      rowSpacing: 0,
      attributes: [],
    };
    if (e.flags & 1 && frame) ref.clip = { boundary: frame.map(([x, y]) => [x * 25.4, y * 25.4]), inverted: (e.flags & 16) !== 0 };
    ctx.drawInsert(ref);
  } else if (frame) {
    ctx.warn({ code: 'image', subject: name, message: `${e.dxfType} "${name}" is not loaded: only its frame is drawn` });
  } else {
    ctx.skip(e.dxfType);
    ctx.warn({
      code: 'unsupported-entity',
      subject: `${e.dxfType}|${name}`,
      message: `${e.dxfType} not drawn: its file "${name}" was not given with the drawing and it has no clip boundary to frame`,
    });
    return false;
  }
  // $PDFFRAME 0: no frame (1 displayed and plotted, the default; 2 displayed only).
  if (frame && Number(ctx.drawing.header.vars['$PDFFRAME'] ?? 1) !== 0) {
    const m: Mat = multiply(
      ctx.ocs(e),
      multiply(multiply(translation(...e.insertion), rotationZ((e.rotation * Math.PI) / 180)), [
        e.scale[0],
        0,
        0,
        0,
        0,
        e.scale[1],
        0,
        0,
        0,
        0,
        1,
        0,
      ]),
    );
    ctx.stroke(ctx.style(e), m, frame.flat(), true);
  }
  ctx.count(e.dxfType);
  return false;
}
