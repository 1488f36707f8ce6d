import { CadConvertError, convertDrawing } from '@xcad/cad/convert';
import { CadLimitError, CadReadError, type LimitName } from '@xcad/cad/errors';
import { checkOutputBytes } from '@xcad/cad/limits';
import { convertToDxf, writeDxf } from '@xcad/cad/dxf-writer';
import { convertToDwg, writeDwg } from '@xcad/cad/dwg-writer';
import type { Drawing } from '@xcad/cad/model';
import { pdfToDrawing } from '@xcad/cad/pdf';
import {
  serveConversions,
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

/** A drawing written in the target's format and version. */
function writeCad(drawing: Drawing, target: CadTarget): { bytes: Uint8Array; notes: string[] } {
  return target.format === 'dwg' ? writeDwg(drawing, { version: target.version }) : writeDxf(drawing, { version: target.version });
}

/** cad2ver and pdf2cad: one DXF or DWG of the version asked. */
async function writeCadOf(input: Uint8Array, name: string | undefined, target: CadTarget): Promise<{ data: Uint8Array; notes: number }> {
  if (target.fromPdf) {
    const { drawing, notes } = await pdfToDrawing(input, target.pages === undefined ? {} : { pages: target.pages });
    const written = writeCad(drawing, target);
    return { data: checkOutputBytes(written.bytes), notes: notes.length + written.notes.length };
  }
  const inputName = name ?? 'drawing.dwg';
  const converted =
    target.format === 'dwg'
      ? await convertToDwg(input, inputName, { version: target.version })
      : await convertToDxf(input, inputName, { version: target.version });
  return { data: checkOutputBytes(converted.bytes), notes: converted.notes.length };
}

async function convert(request: ConversionRequest): Promise<ConversionOutcome> {
  const started = performance.now();
  try {
    if (request.cad !== undefined) {
      const written = await writeCadOf(request.input, request.options.name, request.cad);
      return { ok: true, outputs: [{ layout: undefined, data: written.data }], warnings: written.notes };
    }
    const result = await convertDrawing(request.input, request.options);
    return {
      ok: true,
      outputs: result.outputs.map((output) => ({ layout: output.name, data: output.data })),
      warnings: result.warnings.length,
    };
  } catch (error) {
    return { ok: false, ...failureOf(error, performance.now() - started, request.options.dwgTimeoutMs) };
  }
}

serveConversions(convert);
