import { readFileSync } from 'node:fs';
import { openDrawing } from '../packages/cad/src/open';
import { buildScenes } from '../packages/cad/src/display';
import { defaultFonts } from '../packages/cad/src/convert';
(async () => {
  const fonts = await defaultFonts();
  for (const f of process.argv.slice(2)) {
    const { drawing } = await openDrawing(readFileSync(f), f);
    const tables = drawing.modelSpace.filter((e) => e.type === 'ACAD_TABLE');
    for (const t of tables) {
      const r = buildScenes({ ...drawing, modelSpace: [t] }, { layouts: 'model', fonts });
      const l = r.scenes[0]!.list;
      const texts = l.primitives.filter((p) => p.kind === 'text').map((p) => (p as { text: string }).text);
      console.log(f.split('/').pop(), t.handle, 'graphics' in t && t.graphics ? 'proxy' : 'block', JSON.stringify(l.bounds), l.primitives.length, texts.slice(0, 8).join('|'));
    }
  }
})();
