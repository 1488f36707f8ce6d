import { readFileSync } from 'node:fs';
import { openDrawing } from '../packages/cad/src/open';
(async () => {
  const f = process.argv[2]!;
  const { drawing } = await openDrawing(readFileSync(f), f);
  const all = [drawing.modelSpace, ...drawing.layouts.map((l) => l.entities ?? []), ...Object.values(drawing.blocks).map((b) => b.entities)].flat();
  for (const e of all) if (e.type === 'ACAD_TABLE') console.log(e.handle, e.block, e.insertion, e.rows, e.columns, e.rowHeights.length, e.cells.length, e.owner);
  for (const b of Object.values(drawing.blocks)) if (/^\*T/i.test(b.name)) console.log(b.name, b.handle, b.basePoint, b.entities.length, JSON.stringify(b).slice(0, 300));
  console.log(drawing.blockRecords.filter((r) => /^\*T/i.test(r.name)));
})();
