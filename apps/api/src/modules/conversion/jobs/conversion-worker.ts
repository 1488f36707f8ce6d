import { CadConvertError, convertDrawing } from '@xcad/cad/convert';
import { CadLimitError, CadReadError, type LimitName } from '@xcad/cad/errors';
import { checkOutputBytes } from '@xcad/cad/limits';
import { writeDxf } from '@xcad/cad/dxf-writer';
import { writeDwg } from '@xcad/cad/dwg-writer';
import type { Drawing } from '@xcad/cad/model';
import { openDrawing } from '@xcad/cad/open';
import { pdfToDrawing } from '@xcad/cad/pdf';
import { ZFileChange, type TFileChange, type TFileSummary } from '@xcad/protocol';
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

/** Dropped before lowered, then the most objects first (the order the engine's save-as report keeps). */
function ordered(changes: readonly TFileChange[]): TFileChange[] {
  return [...changes].sort((a, b) => (a.outcome === b.outcome ? b.count - a.count : a.outcome === 'dropped' ? -1 : 1));
}

/**
 * The save-as changes of a writer's result (the engine's `changes`, contract of decision 0036), checked
 * at this boundary: a result without them (an engine before the report) changed nothing it can tell.
 */
function changesOf(written: object): TFileChange[] {
  if (!('changes' in written)) return [];
  const parsed = ZFileChange.array().safeParse(written.changes);
  return parsed.success ? ordered(parsed.data) : [];
}

/** The layouts with something in them ('Model' for model space) and the objects of model and paper space. */
function summaryOf(drawing: Drawing): TFileSummary {
  const paper = drawing.layouts.filter((layout) => !layout.isModel && (layout.entities?.length ?? 0) > 0);
  const layouts = [...(drawing.modelSpace.length > 0 ? ['Model'] : []), ...paper.map((layout) => layout.name)];
  const objects = drawing.modelSpace.length + paper.reduce((sum, layout) => sum + (layout.entities?.length ?? 0), 0);
  return { layouts, objects };
}

/** A drawing written in the target's format and version. */
function writeCad(drawing: Drawing, target: CadTarget): { bytes: Uint8Array; notes: string[] } {
  return target.format === 'dwg' ? writeDwg(drawing, { version: target.version }) : writeDxf(drawing, { version: target.version });
}

/** cad2ver and pdf2cad: one DXF or DWG of the version asked, and what it holds and lost. */
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
  const written = writeCad(opened.drawing, target);
  const readNotes = 'notes' in opened ? opened.notes.length : opened.warnings.length;
  return {
    data: checkOutputBytes(written.bytes),
    notes: readNotes + written.notes.length,
    report: { summary: summaryOf(opened.drawing), changes: changesOf(written) },
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
    const skipped = Object.entries(result.skipped).map(([type, count]): TFileChange => ({
      type,
      count,
      outcome: 'dropped',
      how: 'not-drawn',
    }));
    return {
      ok: true,
      outputs: result.outputs.map((output) => ({ layout: output.name, data: output.data })),
      warnings: result.warnings.length,
      report: {
        summary: {
          layouts: result.outputs.flatMap((output) => output.layouts),
          objects: Object.values(result.drawn).reduce((sum, count) => sum + count, 0),
        },
        changes: ordered(skipped),
      },
    };
  } catch (error) {
    return { ok: false, ...failureOf(error, performance.now() - started, request.options.dwgTimeoutMs) };
  }
}

serveConversions(convert);
