import { readFileSync } from 'node:fs';
import { openDrawing } from '../packages/cad/src/open';
(async () => {
  const f = process.argv[2]!;
  const { drawing } = await openDrawing(readFileSync(f), f);
  for (const b of Object.values(drawing.blocks)) if (/^\*T/i.test(b.name)) for (const e of b.entities.slice(0, 3)) console.log(b.name, JSON.stringify(e).slice(0, 400));
})();
