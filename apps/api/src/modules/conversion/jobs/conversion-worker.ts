import { CadConvertError, convertDrawing, writeDrawingAs } from '@xcad/cad/convert';
import { CadLimitError, CadReadError, type LimitName } from '@xcad/cad/errors';
import { checkOutputBytes } from '@xcad/cad/limits';
import { openDrawing } from '@xcad/cad/open';
import { pdfToDrawing } from '@xcad/cad/pdf';
import type { TFileChange } from '@xcad/protocol';
import { fileNameOf, type ReferenceMissing } from '@xcad/cad/companions';
import {
  serveConversions,
  type ConversionReport,
  type WorkerConvertOptions,
  type ConversionFailure,
  type ConversionOutcome,
  type ConversionRequest,
  type CadTarget,
} from './worker-protocol';

// Decisions 0019 and 0027: the entry of a conversion process (started through worker-boot.mjs). It converts
// with packages/cad, whose budgets stop a hostile drawing early, and sorts what went wrong into the
// drawing's faults; the process's time and memory limits are the runner's business.

function failureOf(
  error: unknown,
  elapsedMs: number,
  readerLimitMs: number | undefined,
): { failure: ConversionFailure; detail: string; limit?: LimitName } {
  const detail = error instanceof Error ? error.message : String(error);
  if (error instanceof CadLimitError) return { failure: 'limit', detail, limit: error.limit };
  if (error instanceof CadReadError) {
    // The DWG reader is stopped at the job's time limit and then reports a read failure: the
    // drawing took too long, it is not necessarily damaged.
    if (readerLimitMs !== undefined && elapsedMs >= readerLimitMs) return { failure: 'timeout', detail };
    return { failure: error.reason === 'empty' ? 'empty' : 'unreadable', detail };
  }
  if (error instanceof CadConvertError) return { failure: error.reason, detail };
  return { failure: 'internal', detail };
}

/** cad2ver and pdf2cad: one DXF or DWG of the version asked, what it holds and what the version changed (decision 0036). */
async function writeCadOf(
  input: Uint8Array,
  options: WorkerConvertOptions,
  target: CadTarget,
): Promise<{ data: Uint8Array; notes: number; report: ConversionReport }> {
  const opened = target.fromPdf
    ? await pdfToDrawing(input, target.pages === undefined ? {} : { pages: target.pages })
    : await openDrawing(
        input,
        options.name ?? 'drawing.dwg',
        options.dwgTimeoutMs === undefined ? {} : { dwgTimeoutMs: options.dwgTimeoutMs },
      );
  const saved = writeDrawingAs(opened.drawing, target);
  const readNotes = 'notes' in opened ? opened.notes.length : opened.warnings.length;
  return {
    data: checkOutputBytes(saved.bytes),
    notes: readNotes + saved.notes.length,
    report: { summary: saved.summary, changes: saved.changes },
  };
}

async function convert(request: ConversionRequest): Promise<ConversionOutcome> {
  const started = performance.now();
  try {
    if (request.cad !== undefined) {
      const written = await writeCadOf(request.input, request.options, request.cad);
      return { ok: true, outputs: [{ layout: undefined, data: written.data }], warnings: written.notes, report: written.report };
    }
    const result = await convertDrawing(request.input, request.options);
    // What could not be drawn, the most objects first (the save-as report's order).
    const skipped = Object.entries(result.skipped)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([type, count]): TFileChange => ({ type, count, outcome: 'dropped', how: 'not-drawn' }));
    // The pictures and xrefs it names that were not among the task's files (or could not be used).
    skipped.unshift(...missingReferences(result.references.missing));
    return {
      ok: true,
      outputs: result.outputs.map((output) => ({ layout: output.name, data: output.data })),
      warnings: result.warnings.length,
      report: {
        summary: {
          layouts: result.outputs.flatMap((output) => output.layouts),
          objects: Object.values(result.drawn).reduce((sum, count) => sum + count, 0),
        },
        changes: skipped,
      },
    };
  } catch (error) {
    return { ok: false, ...failureOf(error, performance.now() - started, request.options.dwgTimeoutMs) };
  }
}

/** One line per kind and reason: "外部参照 ×2：未随图纸上传（site.dwg、road.dwg）". */
function missingReferences(missing: readonly ReferenceMissing[]): TFileChange[] {
  const lines = new Map<string, TFileChange & { names: string[] }>();
  for (const m of missing) {
    const type = m.kind === 'xref' ? 'XREF' : 'IMAGE';
    const key = `${type}|${m.reason}`;
    const line = lines.get(key) ?? { type, count: 0, outcome: 'dropped', how: `ref-${m.reason}`, names: [] };
    line.count += 1;
    if (line.names.length < 20) line.names.push(fileNameOf(m.reference).slice(0, 255));
    lines.set(key, line);
  }
  return [...lines.values()];
}

serveConversions(convert);
