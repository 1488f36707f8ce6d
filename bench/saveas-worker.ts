// The worker side of bench/saveas.bench.ts: one long-lived process that converts one input at a time
// to every target asked, as the site's conversion workers do (convertToDwg / convertToDxf on the
// input's bytes), and checks each result against the original (bench/saveas-check.ts).
// Protocol: one request per line of stdin ({"file", "name", "targets", "scratch", "pngDir"}); one
// JSON line per event on stdout: {"kind":"source"} once per input, then {"kind":"row"} per target
// (in the order asked), then {"kind":"done"}. The parent times each line and kills this process when
// a conversion overruns its limit (it restarts it for the remaining targets).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { keepDwgReader } from '@xcad/cad/dwg-client';
import { convertToDwg, type DwgVersion } from '@xcad/cad/dwg-writer';
import { convertToDxf, type DxfVersion } from '@xcad/cad/dxf-writer';
import { openDrawing } from '@xcad/cad/open';
import { checkResult, errorText, original, safe, type Converted, type Original } from './saveas-check';
import type { SourceEvent, Target, TargetRow, WorkerRequest } from './saveas-shared';

// One LibreDWG reader child for the whole run (each DWG read, the inputs' and the results', goes through it).
keepDwgReader(60_000);

function emit(event: object): void {
  process.stdout.write(`${JSON.stringify(event)}\n`);
}

/** As the conversion workers convert; `changes` is the engine's save-as report (decision 0037) where it has one. */
async function convert(bytes: Uint8Array, name: string, target: Target): Promise<Converted> {
  return target.format === 'dwg'
    ? await convertToDwg(bytes, name, { version: target.version as DwgVersion })
    : await convertToDxf(bytes, name, { version: target.version as DxfVersion });
}

async function sweep(request: WorkerRequest): Promise<void> {
  const bytes = new Uint8Array(readFileSync(request.file));
  const started = performance.now();
  let source: Original;
  let readMs: number;
  try {
    const drawing = (await openDrawing(bytes, request.name)).drawing;
    readMs = performance.now() - started;
    try {
      source = await original(drawing, request.name);
    } catch (e) {
      emit({ kind: 'source', ok: false, error: `rendering the original: ${errorText(e)}`, refused: false } satisfies SourceEvent);
      return;
    }
  } catch (e) {
    emit({ kind: 'source', ok: false, error: errorText(e), refused: (e as Error).name === 'CadReadError' } satisfies SourceEvent);
    return;
  }
  emit({
    kind: 'source',
    ok: true,
    readMs,
    renderMs: performance.now() - started - readMs,
    scenes: source.scenes.map((s) => s.scene.name),
    counts: source.counts,
  } satisfies SourceEvent);
  mkdirSync(request.pngDir, { recursive: true });

  for (const target of request.targets) {
    let row: TargetRow = { kind: 'row', target, status: 'failed', notes: [], readback: [] };
    try {
      const t0 = performance.now();
      const out = await convert(bytes, request.name, target);
      const convertMs = performance.now() - t0;
      let outFile: string | undefined;
      if (target.format === 'dxf') {
        outFile = path.join(request.scratch, `${safe(request.name)}.${target.version}.dxf`);
        writeFileSync(outFile, out.bytes);
      }
      row = { ...(await checkResult(source, target, out, request.pngDir)), convertMs, ...(outFile ? { outFile } : {}) };
    } catch (e) {
      row.error = errorText(e);
    }
    emit(row);
  }
}

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const request = JSON.parse(line) as WorkerRequest;
  await sweep(request);
  emit({ kind: 'done' });
}
