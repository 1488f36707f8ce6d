import type { Vec3 } from '../geom/vector';
import type { GroupValue } from './tokenizer';

/**
 * One DXF object: the groups between two 0-groups. Reactor / xdictionary brackets (102 {...}) are
 * dropped while collecting (the extension dictionary's handle is kept in `xdict`); extended data
 * (1001+) is kept after `xdataStart`.
 */
export class DxfRecord {
  type = '';
  codes: number[] = [];
  vals: GroupValue[] = [];
  /** Index of the first 1001 group, or codes.length. */
  xdataStart = 0;
  /** Handle of the extension dictionary (360 inside `102 {ACAD_XDICTIONARY`), '' when none. */
  xdict = '';

  get length(): number {
    return this.xdataStart;
  }

  indexOf(code: number, from = 0): number {
    const c = this.codes;
    const end = this.xdataStart;
    for (let i = from; i < end; i++) if (c[i] === code) return i;
    return -1;
  }

  has(code: number): boolean {
    return this.indexOf(code) >= 0;
  }

  str(code: number, def = ''): string {
    const i = this.indexOf(code);
    return i < 0 ? def : asStr(this.vals[i]);
  }

  optStr(code: number): string | undefined {
    const i = this.indexOf(code);
    return i < 0 ? undefined : asStr(this.vals[i]);
  }

  num(code: number, def = 0): number {
    const i = this.indexOf(code);
    return i < 0 ? def : asNum(this.vals[i], def);
  }

  optNum(code: number): number | undefined {
    const i = this.indexOf(code);
    return i < 0 ? undefined : asNum(this.vals[i], 0);
  }

  /** Point from groups code, code+10, code+20 (first occurrence of `code`). */
  pt(code: number, def: Vec3 = [0, 0, 0]): Vec3 {
    const i = this.indexOf(code);
    if (i < 0) return [def[0], def[1], def[2]];
    return this.loosePt(i, def[2]);
  }

  optPt(code: number): Vec3 | undefined {
    const i = this.indexOf(code);
    return i < 0 ? undefined : this.loosePt(i, 0);
  }

  /**
   * A single point whose y and z usually follow x; very old files (R2.x) write all x groups first
   * (10, 11, 20, 21, ...), so y and z are then taken from their first occurrence anywhere.
   */
  private loosePt(i: number, defZ: number): Vec3 {
    const code = this.codes[i] as number;
    if (this.codes[i + 1] === code + 10) return this.ptAt(i, defZ);
    const y = this.indexOf(code + 10);
    const z = this.indexOf(code + 20);
    return [asNum(this.vals[i], 0), y < 0 ? 0 : asNum(this.vals[y], 0), z < 0 ? defZ : asNum(this.vals[z], defZ)];
  }

  /** Point whose x group is at index i; y and z are looked for just after it. */
  ptAt(i: number, defZ = 0): Vec3 {
    const code = this.codes[i] as number;
    const x = asNum(this.vals[i], 0);
    let y = 0;
    let z = defZ;
    let j = i + 1;
    if (this.codes[j] === code + 10) {
      y = asNum(this.vals[j], 0);
      j++;
    }
    if (this.codes[j] === code + 20) z = asNum(this.vals[j], defZ);
    return [x, y, z];
  }

  /** Extended data groups of one application (after `1001 appName`). */
  xdata(appName: string): { code: number; value: GroupValue }[] {
    const out: { code: number; value: GroupValue }[] = [];
    let inApp = false;
    for (let i = this.xdataStart; i < this.codes.length; i++) {
      const c = this.codes[i] as number;
      const v = this.vals[i] as GroupValue;
      if (c === 1001) {
        inApp = asStr(v).toUpperCase() === appName;
        continue;
      }
      if (inApp) out.push({ code: c, value: v });
    }
    return out;
  }
}

export function asStr(v: GroupValue | undefined): string {
  return v === undefined ? '' : typeof v === 'string' ? v : String(v);
}

export function asNum(v: GroupValue | undefined, def = 0): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === undefined) return def;
  const n = Number(v);
  return Number.isFinite(n) ? n : def;
}
