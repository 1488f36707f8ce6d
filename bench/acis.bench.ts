// ACIS solids benchmark (issue 30): a drawing of 1,000 3DSOLIDs (boxes and cylinders, SAT text
// enciphered as R2000-R2010 DXF writes it, each turned and moved by its body transform) converted to
// PNG and PDF by `cad convert`, cold (CAD_SERVER=0: a Node process of its own, start-up included),
// three runs each; the median printed against the 5 s target.
// Usage: npx tsx bench/acis.bench.ts
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { acisRecord, boxSat, cylinderSat, dxfText } from '@xcad/cad/testing';
import { cadArgv } from './cad-command';
import { runProcess } from './run-process';

const SOLIDS = 1000;
const RUNS = 3;
const TARGET_MS = 5000;

function drawing(): string {
  const g: [number, string | number][] = [
    [0, 'SECTION'],
    [2, 'ENTITIES'],
  ];
  for (let i = 0; i < SOLIDS; i++) {
    const at: [number, number, number] = [(i % 40) * 60, Math.floor(i / 40) * 60, 0];
    const sat = i % 2 ? cylinderSat(i % 90, at) : boxSat(700, i % 90, at);
    g.push(...acisRecord('3DSOLID', sat, [[62, 1 + (i % 7)]]));
  }
  g.push([0, 'ENDSEC'], [0, 'EOF']);
  return dxfText(g);
}

const dir = mkdtempSync(path.join(tmpdir(), 'acis-bench-'));
try {
  const file = path.join(dir, 'solids-1000.dxf');
  writeFileSync(file, drawing());
  for (const ext of ['png', 'pdf']) {
    const times: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const { cmd, argv, env } = cadArgv(['convert', file, path.join(dir, `out.${ext}`)], true);
      const res = await runProcess(cmd, argv, { timeoutMs: 60_000, env });
      if (res.status !== 'ok') throw new Error(`cad convert ${ext}: ${res.error ?? res.status}`);
      times.push(res.ms);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)] as number;
    console.log(
      `1,000 solids → ${ext.toUpperCase()}: median ${(median / 1000).toFixed(2)} s over ${RUNS} cold runs (target < ${TARGET_MS / 1000} s) ${median < TARGET_MS ? 'ok' : 'OVER'}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
