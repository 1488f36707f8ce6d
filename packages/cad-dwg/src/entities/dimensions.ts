/** DIMENSION (the fixed types and the ARC_DIMENSION / LARGE_RADIAL_DIMENSION classes) and LEADER. */
import type { DimensionEntity, Entity, LeaderEntity, ToleranceEntity } from '@xcad/cad/model';
import type { Vec3 } from '@xcad/cad/geom';
import { hex, RAD2DEG } from '../access';
import { T } from '../types';
import { isZero, type EntityContext, type Owner } from './context';

export function dimension(r: EntityContext, obj: number, tio: number, type: number, owner: Owner, classType?: number): DimensionEntity {
  const a = r.a;
  const subtype: Record<number, number> = {
    [T.DIMENSION_LINEAR]: 0,
    [T.DIMENSION_ALIGNED]: 1,
    [T.DIMENSION_ANG2LN]: 2,
    [T.DIMENSION_DIAMETER]: 3,
    [T.DIMENSION_RADIUS]: 4,
    [T.DIMENSION_ANG3PT]: 5,
    [T.DIMENSION_ORDINATE]: 6,
  };
  const dimType = classType ?? subtype[type] ?? 0;
  let flags = (a.u8(tio, type, 'flag') & ~7) | dimType;
  const z = a.d(tio, type, 'elevation');
  const mid = a.p2(tio, type, 'text_midpt');
  const defPoints: DimensionEntity['defPoints'] = {};
  let defPoint = a.p3(tio, type, 'def_pt');
  let angle = 0;
  switch (type) {
    case T.DIMENSION_LINEAR:
      angle = a.d(tio, type, 'dim_rotation') * RAD2DEG;
      defPoints.p13 = a.p3(tio, type, 'xline1_pt');
      defPoints.p14 = a.p3(tio, type, 'xline2_pt');
      break;
    case T.DIMENSION_ALIGNED:
      defPoints.p13 = a.p3(tio, type, 'xline1_pt');
      defPoints.p14 = a.p3(tio, type, 'xline2_pt');
      break;
    case T.DIMENSION_ANG3PT:
      defPoints.p13 = a.p3(tio, type, 'xline1_pt');
      defPoints.p14 = a.p3(tio, type, 'xline2_pt');
      defPoints.p15 = a.p3(tio, type, 'center_pt');
      break;
    case T.DIMENSION_ANG2LN:
      // DXF 10 is the end of the second line; LibreDWG's def_pt is the arc location (DXF 16).
      defPoints.p16 = defPoint;
      defPoint = a.p3(tio, type, 'xline2end_pt');
      defPoints.p13 = a.p3(tio, type, 'xline1start_pt');
      defPoints.p14 = a.p3(tio, type, 'xline1end_pt');
      defPoints.p15 = a.p3(tio, type, 'xline2start_pt');
      break;
    case T.DIMENSION_RADIUS:
    case T.DIMENSION_DIAMETER:
      defPoints.p15 = a.p3(tio, type, 'first_arc_pt');
      break;
    case T.DIMENSION_ORDINATE:
      defPoints.p13 = a.p3(tio, type, 'feature_location_pt');
      defPoints.p14 = a.p3(tio, type, 'leader_endpt');
      if (a.u8(tio, type, 'flag2')) flags |= 64;
      break;
    default:
      // ARC_DIMENSION (13, 14, 15 like the 3-point angle); LARGE_RADIAL_DIMENSION has none.
      if (a.off(tio, type, 'xline1_pt') >= 0) {
        defPoints.p13 = a.p3(tio, type, 'xline1_pt');
        defPoints.p14 = a.p3(tio, type, 'xline2_pt');
        defPoints.p15 = a.p3(tio, type, 'center_pt');
      }
  }
  const e: DimensionEntity = {
    ...r.base(obj, tio, type, owner),
    type: 'DIMENSION',
    block: r.name(r.names.blocks, a.ptr(tio, type, 'block'), ''),
    dimType,
    flags,
    style: r.name(r.names.dimstyles, a.ptr(tio, type, 'dimstyle'), 'STANDARD'),
    text: a.str(tio, type, 'user_text'),
    defPoint,
    textMidpoint: [mid[0], mid[1], z],
    defPoints,
    textRotation: a.d(tio, type, 'text_rotation') * RAD2DEG,
    angle,
    attachment: a.u16(tio, type, 'attachment', 5) || 5,
  };
  const m = a.d(tio, type, 'act_measurement', NaN);
  if (!Number.isNaN(m)) e.measurement = m;
  return e;
}

export function leader(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): Entity {
  const a = r.a;
  const n = a.u32(tio, type, 'num_points');
  const p = a.ptr(tio, type, 'points');
  const vertices: Vec3[] = [];
  if (p) for (let i = 0; i < Math.min(n, 100_000); i++) vertices.push(a.p3At(p + 24 * i));
  const e: Entity = {
    ...r.base(obj, tio, type, owner),
    type: 'LEADER',
    vertices,
    arrowhead: a.u8(tio, type, 'arrowhead_on') !== 0,
    pathType: a.u16(tio, type, 'path_type'),
    style: r.name(r.names.dimstyles, a.ptr(tio, type, 'dimstyle'), 'STANDARD'),
  };
  const ann = a.refHandle(a.ptr(tio, type, 'associated_annotation'));
  if (ann) e.annotation = hex(ann);
  if (e.type === 'LEADER') {
    if (a.off(tio, type, 'annot_type') >= 0) e.annotationType = a.u16(tio, type, 'annot_type');
    if (r.names.r2010) r2010Flags(r, tio, type, e);
    else {
      if (a.off(tio, type, 'hookline_on') >= 0) e.hookline = a.u8(tio, type, 'hookline_on') !== 0;
      if (a.off(tio, type, 'hookline_dir') >= 0) e.hooklineDirection = a.u8(tio, type, 'hookline_dir');
      if (a.off(tio, type, 'box_height') >= 0) e.textHeight = a.d(tio, type, 'box_height');
      if (a.off(tio, type, 'box_width') >= 0) e.textWidth = a.d(tio, type, 'box_width');
    }
    const hd = a.p3(tio, type, 'x_direction');
    if (!isZero(hd)) e.horizontalDirection = hd;
    const bc = a.u16(tio, type, 'byblock_color');
    if (bc > 0 && bc < 256) e.blockColor = bc;
  }
  return e;
}

/**
 * The flags of an R2010+ LEADER. From R2010 the object keeps the end-point projection (3BD) and no
 * annotation box (AutoCAD's own files, decision 0023), while LibreDWG still reads the R2007 layout
 * without the projection: its box height and width are the projection's x and y, its hook-line
 * direction and arrowhead flags are the two code bits of the projection's z (BD code 10 for 0, 01
 * for 1), and its arrowhead type (a BS) is read from the real hook-line direction and arrowhead
 * bits as that BS's code: 11 = 256, 10 = 0, 01 = one byte follows (< 256), 00 = two bytes follow
 * (the first starts with the real arrowhead type's code 10, the second is the next data: >= 256 in
 * every file seen). The hook-line flag is not among the bits LibreDWG reads: it stays unset. A
 * projection off z = 0 or 1 (a full double) cannot be unpicked: its flags stay as LibreDWG read them.
 */
function r2010Flags(r: EntityContext, tio: number, type: number, e: LeaderEntity): void {
  const a = r.a;
  if (a.off(tio, type, 'hookline_dir') < 0 || a.off(tio, type, 'arrowhead_on') < 0 || a.off(tio, type, 'arrowhead_type') < 0) return;
  const zCode = (a.u8(tio, type, 'hookline_dir') << 1) | a.u8(tio, type, 'arrowhead_on');
  if (zCode !== 0b10 && zCode !== 0b01) return;
  const t = a.u16(tio, type, 'arrowhead_type');
  if (t === 256 || t === 0) {
    e.hooklineDirection = 1;
    e.arrowhead = t === 256;
  } else {
    e.hooklineDirection = 0;
    e.arrowhead = t < 256;
  }
}

/** TOLERANCE: the feature control frame's text, insertion and X direction, by its dimension style. */
export function tolerance(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): ToleranceEntity {
  const a = r.a;
  const dir = a.p3(tio, type, 'x_direction');
  return {
    ...r.base(obj, tio, type, owner),
    type: 'TOLERANCE',
    style: r.name(r.names.dimstyles, a.ptr(tio, type, 'dimstyle'), 'STANDARD'),
    insertion: a.p3(tio, type, 'ins_pt'),
    direction: isZero(dir) ? [1, 0, 0] : dir,
    text: a.str(tio, type, 'text_value'),
  };
}
