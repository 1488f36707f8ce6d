/** Entity type → the handler that draws it (the geometric types live in curves.ts, INSERT and XLINE in builder.ts). */
import type { EntityType } from '../model';
import { drawMText, drawText } from './text';
import type { EntityHandler } from './context';
import { drawDimension } from './dimension';
import { drawHatch } from './hatch';
import { drawImage } from './image';
import { drawLeader, drawMLeader } from './leader';
import { drawTable } from './table';

export const HANDLERS: Partial<Record<EntityType, EntityHandler<never>>> = {
  TEXT: drawText,
  ATTRIB: drawText,
  ATTDEF: drawText,
  MTEXT: drawMText,
  HATCH: drawHatch,
  DIMENSION: drawDimension,
  LEADER: drawLeader,
  MULTILEADER: drawMLeader,
  ACAD_TABLE: drawTable,
  IMAGE: drawImage,
  WIPEOUT: drawImage,
};
