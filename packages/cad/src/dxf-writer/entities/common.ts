/**
 * What every entity writer shares: the file being written (its version, handles, tables, notes)
 * and the groups every entity starts with.
 */
import { nearestAci } from '../../geom/color';
import type { BlockClip, Color, Drawing, Entity } from '../../model';
import type { Vec3 } from '../../geom/vector';
import { change, type SaveAsNote } from '../../save-as';
import type { Groups } from '../encode';
import { upper, type HandleTable } from '../handles';

/** The file being written, as the entity writers see it (DxfWriter). */
export interface EntityWriterContext {
  readonly d: Drawing;
  /** Number of the release: 12, 2000, 2004, ... */
  readonly year: number;
  readonly r12: boolean;
  /** The version as named in the options ('R12', '2000', ...), for notes. */
  readonly version: string;
  readonly layers: HandleTable;
  readonly ltypes: HandleTable;
  readonly styles: HandleTable;
  readonly dimstyles: HandleTable;
  /** Classes the CLASSES section must declare. */
  readonly classes: Set<string>;
  /** Source IMAGEDEF handle (or a file name) → new IMAGEDEF handle and file. */
  readonly imageDefs: Map<string, { handle: string; fileName: string; size?: [number, number] }>;
  /** A fresh handle. */
  handle(): string;
  /**
   * The handle for an entity about to be written: the one already promised to its source handle
   * (something written earlier refers to it), else a fresh one, remembered for later references.
   */
  entityHandle(e: Entity): string;
  /** The handle promised to the entity written for source handle `source` (it is written later or was written). */
  refHandle(source: string): string;
  /** An INSERT's XCLIP: the extension dictionary to write it in (the objects follow in OBJECTS). */
  xclip(insert: string, clip: BlockClip): string;
  /** Counts one object changed to fit the version (decision 0037). */
  note(n: SaveAsNote): void;
}

const isDefaultExtrusion = (v: Vec3): boolean => v[0] === 0 && v[1] === 0 && v[2] === 1;

export function layerName(w: EntityWriterContext, name: string): string {
  const n = name || '0';
  w.layers.get(n);
  return n;
}

/** 0 TYPE, handle, owner, common groups; returns the handle. */
export function common(w: EntityWriterContext, out: Groups, e: Entity, type: string, owner: string, paper: boolean): string {
  const h = w.entityHandle(e);
  out.g(0, type).g(5, h);
  // An XCLIPped block reference owns the extension dictionary its SPATIAL_FILTER hangs from.
  if (e.type === 'INSERT' && e.clip && !w.r12) out.g(102, '{ACAD_XDICTIONARY').g(360, w.xclip(h, e.clip)).g(102, '}');
  if (!w.r12) out.g(330, owner).g(100, 'AcDbEntity');
  if (paper) out.g(67, 1);
  out.g(8, layerName(w, e.layer));
  if (e.linetype && upper(e.linetype) !== 'BYLAYER') {
    w.ltypes.get(e.linetype);
    out.g(6, e.linetype);
  }
  color(w, out, e.color, 62, 420, e.type);
  if (!w.r12 && e.ltscale !== 1 && Number.isFinite(e.ltscale)) out.g(48, e.ltscale);
  if (!e.visible) out.g(60, 1);
  if (!w.r12 && e.lineweight !== -1) out.g(370, e.lineweight);
  if (w.year >= 2004 && e.transparency !== undefined) out.g(440, e.transparency);
  return h;
}

export function color(w: EntityWriterContext, out: Groups, c: Color, aciCode: number, rgbCode: number, type: string): void {
  if (c.rgb !== undefined) {
    if (w.year >= 2004) {
      out.g(aciCode, c.aci !== undefined && c.aci !== 256 && c.aci !== 0 ? c.aci : nearestAci(c.rgb));
      out.g(rgbCode, c.rgb);
    } else {
      out.g(aciCode, c.aci !== undefined && c.aci !== 256 && c.aci !== 0 ? c.aci : nearestAci(c.rgb));
      w.note(change(type, 'nearest-colour', `changed to the nearest ACI colour (DXF ${w.version} has no true colours)`, 'true colour'));
    }
  } else if (c.aci !== undefined && c.aci !== 256) out.g(aciCode, c.aci);
}

export function sub(w: EntityWriterContext, out: Groups, name: string): void {
  if (!w.r12) out.g(100, name);
}

export function extrusion(out: Groups, e: { extrusion: Vec3 }): void {
  if (!isDefaultExtrusion(e.extrusion)) out.pt(210, e.extrusion);
}

export function thickness(out: Groups, e: Entity): void {
  if (e.thickness) out.g(39, e.thickness);
}

/** Viewport frozen layers come as layer handles (DXF 2000+) or names (R12, DWG): names here. */
export function frozenLayerNames(w: EntityWriterContext, list: string[]): string[] {
  const layers = Object.values(w.d.layers);
  const out: string[] = [];
  for (const item of list) {
    const byName = layers.find((l) => upper(l.name) === upper(item));
    const byHandle = byName ? undefined : layers.find((l) => l.handle !== undefined && upper(l.handle) === upper(item));
    const name = byName?.name ?? byHandle?.name;
    if (name) out.push(name);
  }
  return out;
}

export function style(w: EntityWriterContext, out: Groups, name: string): void {
  const n = name || 'Standard';
  w.styles.get(n);
  out.g(7, n);
}

export function dimstyle(w: EntityWriterContext, out: Groups, name: string): void {
  const n = name || 'Standard';
  w.dimstyles.get(n);
  out.g(3, n);
}

export function seqend(w: EntityWriterContext, out: Groups, e: Entity, owner: string, paper: boolean): void {
  out.g(0, 'SEQEND').g(5, w.handle());
  if (!w.r12) out.g(330, owner).g(100, 'AcDbEntity');
  if (paper) out.g(67, 1);
  out.g(8, layerName(w, e.layer));
}
