/** Test helpers for fonts. */
import { sfntTables } from './subset';

/** A font collection (.ttc) of single-face fonts, each face with its own copy of its tables. */
export function fontCollection(fonts: readonly Uint8Array[]): Uint8Array {
  const faces = fonts.map((f) => [...sfntTables(f)].sort(([a], [b]) => (a < b ? -1 : 1)));
  let at = 12 + 4 * faces.length;
  const dirAt = faces.map((tables) => {
    const o = at;
    at += 12 + 16 * tables.length;
    return o;
  });
  const tableAt = faces.map((tables) =>
    tables.map(([, data]) => {
      const o = at;
      at += (data.length + 3) & ~3;
      return o;
    }),
  );
  const out = new Uint8Array(at);
  const view = new DataView(out.buffer);
  out.set([0x74, 0x74, 0x63, 0x66], 0); // 'ttcf'
  view.setUint32(4, 0x00010000);
  view.setUint32(8, faces.length);
  faces.forEach((tables, i) => {
    const d = dirAt[i] as number;
    view.setUint32(12 + 4 * i, d);
    view.setUint32(d, 0x00010000);
    view.setUint16(d + 4, tables.length);
    tables.forEach(([tag, data], k) => {
      const r = d + 12 + 16 * k;
      for (let c = 0; c < 4; c++) out[r + c] = tag.charCodeAt(c);
      const o = (tableAt[i] as number[])[k] as number;
      view.setUint32(r + 8, o);
      view.setUint32(r + 12, data.length);
      out.set(data, o);
    });
  });
  return out;
}
