/**
 * The one table the builder draws through: entity type → its handler. Every EntityType has one
 * (`satisfies` makes a new type fail to compile until it is drawn or explicitly left out); the
 * geometric types come from curves.ts, INSERT and XLINE/RAY from the builder itself.
 */
import type { Entity, EntityOf, EntityType, InsertEntity, XLineEntity } from '../model';
import type { DrawContext } from './context';
import { drawAcis } from './acis';
import { CURVES } from './curves';
import { drawMText, drawText } from './text';
import { drawDimension } from './dimension';
import { drawHatch } from './hatch';
import { drawImage } from './image';
import { drawLeader, drawMLeader } from './leader';
import { drawProxyGraphics } from './proxy';
import { drawTable } from './table';
import { drawTolerance } from './tolerance';
import { drawShape } from './shapes';
import { drawOle2Frame } from './ole';

/** A TArch (天正) custom object type: TCH_WALL, TCH_OPENING, ... */
export function isTArch(dxfType: string): boolean {
  return /^TCH_/i.test(dxfType);
}
import { drawUnderlay } from './underlay';

/** What the builder does beyond the DrawContext every handler gets: block references, construction lines, counts. */
export interface BuildContext extends DrawContext {
  drawInsert(e: InsertEntity): void;
  addXline(e: XLineEntity): void;
  /** Counts an entity drawn / not drawn under `type` (the build result's `drawn` / `skipped`). */
  count(type: string): void;
  skip(type: string): void;
}

/** Draws one entity; false when it is not to be counted as drawn under its type (it counted itself, or is drawn elsewhere). */
export type DrawEntity<E extends Entity = Entity> = (e: E, ctx: BuildContext) => boolean | void;

export const HANDLERS = {
  ...CURVES,
  TEXT: drawText,
  // A multi-line attribute (R2018) is its embedded MTEXT.
  ATTRIB: (e, ctx) => (e.mtext ? drawMText(e.mtext, ctx) : drawText(e, ctx)),
  ATTDEF: drawText,
  MTEXT: drawMText,
  HATCH: drawHatch,
  DIMENSION: drawDimension,
  LEADER: drawLeader,
  MULTILEADER: drawMLeader,
  ACAD_TABLE: drawTable,
  IMAGE: drawImage,
  WIPEOUT: drawImage,
  INSERT: (e, ctx) => ctx.drawInsert(e),
  XLINE: (e, ctx) => ctx.addXline(e),
  RAY: (e, ctx) => ctx.addXline(e),
  // Drawn by the layout pass that looks through it.
  VIEWPORT: () => false,
  TOLERANCE: drawTolerance,
  SHAPE: drawShape,
  OLE2FRAME: drawOle2Frame,
  // 3DSOLID, REGION, BODY, surfaces: the edges of their modeler data.
  ACIS: drawAcis,
  // PDF / DWF / DGN underlays: the page's vectors when the file was given, and the frame.
  UNDERLAY: drawUnderlay,
  UNKNOWN: (e, ctx) => {
    // Custom objects (TArch, AEC, ...) saved with proxy graphics: draw those.
    if (e.graphics && drawProxyGraphics(e, ctx)) {
      ctx.count(e.dxfType);
      return false;
    }
    ctx.skip(e.dxfType);
    ctx.warn({
      code: 'unsupported-entity',
      subject: e.dxfType,
      // TArch (天正) objects saved without proxy graphics: only TArch draws them; its T3 export turns them into plain entities.
      message: isTArch(e.dxfType)
        ? `${e.dxfType} entities are not drawn: 天正对象（无代理图形），请在天正软件中另存为 T3 格式后再打开`
        : `${e.dxfType} entities are not drawn`,
    });
    return false;
  },
} satisfies { [K in EntityType]: DrawEntity<EntityOf<K>> };
