/** 3DSOLID, REGION, BODY and the surfaces: their ACIS modeler data (AcDbModelerGeometry). */
import type { AcisEntity } from '../../model';
import { asNum, asStr, type DxfRecord } from '../record';
import { mk } from './base';

/** The DXF types whose records carry ACIS modeler data. */
export const ACIS_TYPES = [
  '3DSOLID',
  'REGION',
  'BODY',
  'SURFACE',
  'PLANESURFACE',
  'EXTRUDEDSURFACE',
  'LOFTEDSURFACE',
  'REVOLVEDSURFACE',
  'SWEPTSURFACE',
  'NURBSURFACE',
] as const;

/**
 * Up to R2010 the SAT text is in the record: group 1 starts a line, group 3 continues one longer
 * than a group holds, the characters enciphered (decipherSat). From R2013 the record keeps only a
 * GUID and the data (SAB) is in the ACDSDATA section, joined by the reader (`sab` set there).
 */
export function acis(r: DxfRecord): AcisEntity {
  const { codes, vals } = r;
  const lines: string[] = [];
  let inModeler = false;
  // Version 1 (the 70 group) is enciphered; a record without it is taken as enciphered too.
  let version = 1;
  for (let i = 0; i < r.length; i++) {
    const c = codes[i];
    if (c === 100) {
      inModeler = asStr(vals[i]) === 'AcDbModelerGeometry';
      continue;
    }
    if (!inModeler) continue;
    if (c === 70) version = asNum(vals[i], 1);
    else if (c === 1) lines.push(asStr(vals[i]));
    else if (c === 3 && lines.length) lines[lines.length - 1] += asStr(vals[i]);
  }
  const e: AcisEntity = mk(r, { type: 'ACIS', dxfType: r.type });
  if (lines.length) {
    const text = lines.join('\n');
    e.sat = version === 1 && !/^\s*\d+ \d+ \d+/.test(text) ? decipherSat(text) : text;
  }
  return e;
}

/** The character cipher of SAT data in DXF and DWG: every character above the space is 159 − c. */
export function decipherSat(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i += 4096) {
    const chunk = s.slice(i, i + 4096);
    const codes = new Array<number>(chunk.length);
    for (let j = 0; j < chunk.length; j++) {
      const c = chunk.charCodeAt(j);
      codes[j] = c > 32 && c < 159 ? 159 - c : c;
    }
    out += String.fromCharCode(...codes);
  }
  return out;
}

/** An ACDSDATA record's ASM_Data (the SAB of the entity whose handle it names) as [handle, hex]; null for other records. */
export function acdsAsmData(r: DxfRecord): [string, string] | null {
  const { codes, vals } = r;
  let handle = '';
  for (let i = 0; i < r.length; i++) {
    const c = codes[i];
    if (c === 320) handle = asStr(vals[i]).toUpperCase();
    else if (c === 2 && asStr(vals[i]) === 'ASM_Data' && handle) {
      const parts: string[] = [];
      for (let j = i + 1; j < r.length; j++) if (codes[j] === 310) parts.push(asStr(vals[j]).trim());
      return [handle, parts.join('')];
    }
  }
  return null;
}
