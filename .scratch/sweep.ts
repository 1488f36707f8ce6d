import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openDrawing } from '../packages/cad/src/open';
import { buildScenes } from '../packages/cad/src/display';
import { defaultFonts } from '../packages/cad/src/convert';
const KINDS = new Set(['TOLERANCE', 'SHAPE', 'OLE2FRAME', 'ACAD_TABLE']);
const C = '/work/shared/corpus';
(async () => {
  const fonts = await defaultFonts();
  for (const dir of ['dxf', 'dwg']) {
    for (const f of readdirSync(join(C, dir)).sort()) {
      if (f.startsWith('gen_large_')) continue;
      try {
        const { drawing, warnings } = await openDrawing(readFileSync(join(C, dir, f)), f);
        const all = [drawing.modelSpace, ...drawing.layouts.map((l) => l.entities ?? []), ...Object.values(drawing.blocks).map((b) => b.entities)].flat();
        const types: Record<string, number> = {};
        for (const e of all) { const t = e.type === 'UNKNOWN' ? e.dxfType : e.type; if (KINDS.has(t) || /^TCH_/.test(t)) types[t] = (types[t] ?? 0) + 1; }
        if (!Object.keys(types).length) continue;
        const r = buildScenes(drawing, { layouts: 'all', fonts });
        const drawn = Object.fromEntries(Object.entries(r.counts.drawn).filter(([k]) => KINDS.has(k) || /^TCH_/.test(k)));
        const skipped = Object.entries(r.counts.skipped).filter(([k]) => KINDS.has(k) || /^TCH_/.test(k));
        const ws = [...warnings.filter((w) => /TABLE|TOLERANCE|SHAPE|OLE/.test(w)), ...r.warnings.filter((w) => w.code !== 'missing-font' || /Shape/.test(w.message)).filter((w) => /TOLERANCE|SHAPE|Shape|OLE|TCH_|天正/.test(w.message)).map((w) => w.message)];
        console.log(`${dir}/${f}\tmodel=${JSON.stringify(types)}\tdrawn=${JSON.stringify(drawn)}\tskipped=${JSON.stringify(skipped)}\t${[...new Set(ws)].join(' | ')}`);
      } catch (err) {
        console.log(`${dir}/${f}\tERROR ${(err as Error).message}`);
      }
    }
  }
})();
