import { readFileSync, writeFileSync } from 'node:fs';
import { openDrawing } from '../packages/cad/src/open';
(async () => {
  const f = process.argv[2]!;
  const { drawing } = await openDrawing(readFileSync(f), f);
  const all = [drawing.modelSpace, ...drawing.layouts.map((l) => l.entities ?? []), ...Object.values(drawing.blocks).map((b) => b.entities)].flat();
  let i = 0;
  for (const e of all) if (e.type === 'OLE2FRAME') { console.log(e.corner1, e.corner2, e.data.length / 2); writeFileSync(`/tmp/gdt/ole${i++}.bin`, Buffer.from(e.data, 'hex')); }
})();
