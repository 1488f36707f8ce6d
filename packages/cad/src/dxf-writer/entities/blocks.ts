/** INSERT (and MINSERT) with its ATTRIBs and SEQEND. */
import type { EntityOf } from '../../model';
import type { Groups } from '../encode';
import { common, extrusion, seqend, sub, type EntityWriterContext } from './common';
import { writeText } from './text';

export function writeInsert(w: EntityWriterContext, out: Groups, e: EntityOf<'INSERT'>, owner: string, paper: boolean): void {
  const h = common(w, out, e, 'INSERT', owner, paper);
  const multi = e.columnCount > 1 || e.rowCount > 1;
  sub(w, out, multi && !w.r12 ? 'AcDbMInsertBlock' : 'AcDbBlockReference');
  if (e.attributes.length) out.g(66, 1);
  out.g(2, e.name).pt(10, e.insertion);
  if (e.scale[0] !== 1) out.g(41, e.scale[0]);
  if (e.scale[1] !== 1) out.g(42, e.scale[1]);
  if (e.scale[2] !== 1) out.g(43, e.scale[2]);
  if (e.rotation) out.g(50, e.rotation);
  if (multi) out.g(70, e.columnCount).g(71, e.rowCount).g(44, e.columnSpacing).g(45, e.rowSpacing);
  extrusion(out, e);
  if (e.attributes.length) {
    for (const a of e.attributes) writeText(w, out, { ...a, type: 'ATTRIB' }, h, paper);
    seqend(w, out, e, h, paper);
  }
}
