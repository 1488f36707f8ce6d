/** 3DSOLID, REGION, BODY and the surfaces: their ACIS modeler data as LibreDWG gives it. */
import type { AcisEntity } from '@xcad/cad/model';
import { T } from '../types';
import type { EntityContext, Owner } from './context';

/** The longest modeler data taken (larger: the entity is reported as not drawn). */
const MAX_BYTES = 64 << 20;

function dxfTypeOf(r: EntityContext, obj: number, type: number): string {
  if (type === T.REGION) return 'REGION';
  if (type === T.BODY) return 'BODY';
  if (type === T.SOLID3D) return '3DSOLID';
  try {
    return r.a.w.dwg_object_get_dxfname(obj) || '3DSOLID';
  } catch {
    return '3DSOLID';
  }
}

/**
 * Version 1 data (up to R2010) is the SAT text, which LibreDWG deciphers into `acis_data`;
 * version 2 (R2013+) is SAB, `sab_size` bytes, when LibreDWG has read it (it usually lives in the
 * file's AcDsPrototype section, which it does not join to the entity: then neither is set).
 */
export function acis(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): AcisEntity {
  const a = r.a;
  const e: AcisEntity = { ...r.base(obj, tio, type, owner), type: 'ACIS', dxfType: dxfTypeOf(r, obj, type) };
  const ptr = a.ptr(tio, type, 'acis_data');
  if (!ptr || a.u8(tio, type, 'acis_empty')) return e;
  const version = a.u16(tio, type, 'version');
  if (version >= 2) {
    const n = a.u32(tio, type, 'sab_size');
    if (n > 16 && n < MAX_BYTES) {
      const parts: string[] = [];
      for (let i = 0; i < n; i++) parts.push((a.u8At(ptr + i) + 0x100).toString(16).slice(1));
      e.sab = parts.join('');
    }
    return e;
  }
  // NUL-terminated 8-bit text (ASCII), whatever the file's string encoding.
  const chars: number[] = [];
  let text = '';
  for (let i = 0; i < MAX_BYTES; i++) {
    const c = a.u8At(ptr + i);
    if (c === 0) break;
    chars.push(c);
    if (chars.length === 4096) {
      text += String.fromCharCode(...chars);
      chars.length = 0;
    }
  }
  text += String.fromCharCode(...chars);
  if (text.trim()) e.sat = text;
  return e;
}
