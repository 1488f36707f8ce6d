/** TEXT, ATTDEF, ATTRIB and MTEXT. */
import type { EntityOf, TextEntity } from '../../model';
import { change } from '../../save-as';
import type { Groups } from '../encode';
import { color, common, extrusion, style, sub, thickness, type EntityWriterContext } from './common';

export function writeText(w: EntityWriterContext, out: Groups, e: TextEntity, owner: string, paper: boolean): void {
  common(w, out, e, e.type, owner, paper);
  sub(w, out, 'AcDbText');
  thickness(out, e);
  out.pt(10, e.insertion).g(40, e.height).g(1, e.text);
  if (e.rotation) out.g(50, e.rotation);
  if (e.widthFactor !== 1) out.g(41, e.widthFactor);
  if (e.oblique) out.g(51, e.oblique);
  style(w, out, e.style);
  if (e.generation) out.g(71, e.generation);
  if (e.halign) out.g(72, e.halign);
  if (e.alignPoint) out.pt(11, e.alignPoint);
  else if (e.halign || e.valign) out.pt(11, e.insertion);
  extrusion(out, e);
  if (e.type === 'TEXT') {
    sub(w, out, 'AcDbText');
    if (e.valign) out.g(73, e.valign);
    return;
  }
  if (e.type === 'ATTDEF') {
    sub(w, out, 'AcDbAttributeDefinition');
    out.g(3, e.prompt ?? '');
  } else sub(w, out, 'AcDbAttribute');
  out.g(2, e.tag ?? '').g(70, e.attributeFlags ?? 0);
  if (e.valign) out.g(74, e.valign);
}

export function writeMText(w: EntityWriterContext, out: Groups, e: EntityOf<'MTEXT'>, owner: string, paper: boolean): void {
  common(w, out, e, 'MTEXT', owner, paper);
  sub(w, out, 'AcDbMText');
  out.pt(10, e.insertion).g(40, e.height).g(41, e.width);
  if (w.year >= 2007 && e.definedHeight) out.g(46, e.definedHeight);
  out.g(71, e.attachment || 1).g(72, e.drawingDirection || 1);
  const chars = Array.from(e.text);
  for (let i = 0; i + 250 < chars.length; i += 250) out.g(3, chars.slice(i, i + 250).join(''));
  out.g(1, chars.slice(Math.floor(Math.max(0, chars.length - 1) / 250) * 250).join(''));
  style(w, out, e.style);
  extrusion(out, e);
  if (e.direction) out.pt(11, e.direction);
  else if (e.rotation) out.g(50, e.rotation);
  out.g(73, e.lineSpacingStyle || 1).g(44, e.lineSpacingFactor || 1);
  if (w.year >= 2007 && e.background && e.background.flags) {
    out.g(90, e.background.flags);
    color(w, out, e.background.color, 63, 421, e.type);
    out.g(45, e.background.scale).g(441, 0);
  } else if (e.background && e.background.flags) w.note(change('MTEXT', 'detail', `background masks left out (DXF ${w.version} has none)`));
  // 2018 keeps columns in an embedded object after the text (earlier versions get them lowered, lower.ts).
  const c = e.columns && e.columns.type > 0 ? e.columns : undefined;
  if (w.year >= 2018 && c) {
    const r = (e.rotation * Math.PI) / 180;
    out
      .g(101, 'Embedded Object')
      .g(70, 1)
      .pt(10, e.direction ?? [Math.cos(r), Math.sin(r), 0])
      .pt(11, e.insertion);
    out
      .g(40, e.width)
      .g(41, e.definedHeight ?? 0)
      .g(42, e.width)
      .g(43, e.definedHeight ?? 0);
    out
      .g(71, c.type)
      .g(72, Math.max(1, c.count))
      .g(44, c.width)
      .g(45, c.gutter)
      .g(73, c.autoHeight ? 1 : 0)
      .g(74, 0);
    for (const h of c.type === 2 && !c.autoHeight ? c.heights : []) out.g(46, h);
  }
}
