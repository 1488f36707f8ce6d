/** TEXT, ATTDEF (and the ATTRIBs an INSERT reads through textBase), MTEXT. */
import type { MTextEntity, ShapeEntity, TextEntity } from '@xcad/cad/model';
import { hex, RAD2DEG } from '../access';
import { T } from '../types';
import type { EntityContext, Owner } from './context';

export function textBase(r: EntityContext, obj: number, tio: number, type: number, owner: Owner, kind: TextEntity['type']): TextEntity {
  const a = r.a;
  const z = a.d(tio, type, 'elevation');
  const ins = a.p2(tio, type, 'ins_pt');
  const halign = a.u16(tio, type, 'horiz_alignment');
  const valign = a.u16(tio, type, 'vert_alignment');
  const e: TextEntity = {
    ...r.base(obj, tio, type, owner),
    type: kind,
    text: a.str(tio, type, type === T.ATTDEF ? 'default_value' : 'text_value'),
    insertion: [ins[0], ins[1], z],
    height: a.d(tio, type, 'height', 1),
    rotation: a.d(tio, type, 'rotation') * RAD2DEG,
    widthFactor: a.d(tio, type, 'width_factor', 1) || 1,
    oblique: a.d(tio, type, 'oblique_angle') * RAD2DEG,
    style: r.name(r.names.styles, a.ptr(tio, type, 'style'), 'STANDARD'),
    halign,
    valign,
    generation: a.u16(tio, type, 'generation'),
  };
  if (halign !== 0 || valign !== 0) {
    const al = a.p2(tio, type, 'alignment_pt');
    e.alignPoint = [al[0], al[1], z];
  }
  if (type !== T.TEXT) {
    e.tag = a.str(tio, type, 'tag');
    const flags = a.u8(tio, type, 'flags');
    // LibreDWG misreads the flags of R2018 multi-line attributes (values above 15).
    e.attributeFlags = flags <= 15 ? flags : 0;
    if (type === T.ATTDEF) e.prompt = a.str(tio, type, 'prompt');
  }
  return e;
}

export function text(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): TextEntity {
  return textBase(r, obj, tio, type, owner, type === T.ATTDEF ? 'ATTDEF' : 'TEXT');
}

export function mtext(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): MTextEntity {
  const a = r.a;
  const dir = a.p3(tio, type, 'x_axis_dir');
  const e: MTextEntity = {
    ...r.base(obj, tio, type, owner),
    type: 'MTEXT',
    // A line feed in the stored text is a paragraph break (DXF writes it as ^J; both become \P).
    text: a.str(tio, type, 'text').replace(/\r?\n/g, '\\P'),
    insertion: a.p3(tio, type, 'ins_pt'),
    height: a.d(tio, type, 'text_height', 1),
    width: a.d(tio, type, 'rect_width'),
    attachment: a.u16(tio, type, 'attachment', 1) || 1,
    drawingDirection: a.u16(tio, type, 'flow_dir', 1) || 1,
    rotation: 0,
    style: r.name(r.names.styles, a.ptr(tio, type, 'style'), 'STANDARD'),
    lineSpacingFactor: a.d(tio, type, 'linespace_factor', 1) || 1,
    lineSpacingStyle: a.u16(tio, type, 'linespace_style', 1) || 1,
  };
  // DXF writes group 11 only for rotated text; so does this reader.
  if ((dir[0] !== 0 || dir[1] !== 0) && !(dir[0] === 1 && dir[1] === 0 && dir[2] === 0)) {
    e.direction = dir;
    e.rotation = Math.atan2(dir[1], dir[0]) * RAD2DEG;
  }
  const bg = a.u32(tio, type, 'bg_fill_flag');
  if (bg) {
    const scale = a.value<number>(tio, 'bg_fill_scale');
    e.background = {
      flags: bg,
      color: r.structColor(tio, type, 'bg_fill_color'),
      scale: typeof scale === 'number' && scale >= 1 && scale <= 5 ? scale : 1.5,
    };
  }
  const colType = a.u16(tio, type, 'column_type');
  if (colType) {
    const nh = a.u32(tio, type, 'num_column_heights');
    const hp = a.ptr(tio, type, 'column_heights');
    const heights = hp ? a.doublesAt(hp, Math.min(nh, 10_000)).map((h) => (h > 0 && h < 1e15 ? h : 0)) : [];
    e.columns = {
      type: colType,
      count: Math.max(a.u32(tio, type, 'numfragments'), heights.length, 1),
      width: a.d(tio, type, 'column_width'),
      gutter: a.d(tio, type, 'gutter'),
      autoHeight: a.u8(tio, type, 'auto_height') !== 0,
      heights,
    };
  }
  return e;
}

/** SHAPE: a shape of the shape file a text style loads, by number (DXF gives its name instead). */
export function shape(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): ShapeEntity {
  const a = r.a;
  const e: ShapeEntity = {
    ...r.base(obj, tio, type, owner),
    type: 'SHAPE',
    insertion: a.p3(tio, type, 'ins_pt'),
    size: a.d(tio, type, 'scale', 1),
    name: '',
    shapeNumber: a.u16(tio, type, 'style_id'),
    rotation: a.d(tio, type, 'rotation') * RAD2DEG,
    widthFactor: a.d(tio, type, 'width_factor', 1) || 1,
    oblique: a.d(tio, type, 'oblique_angle') * RAD2DEG,
  };
  const style = a.refHandle(a.ptr(tio, type, 'style'));
  if (style) e.styleHandle = hex(style);
  return e;
}
