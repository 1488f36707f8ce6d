import { CadConvertError, convertDrawing } from '@xcad/cad/convert';
import { CadReadError } from '@xcad/cad/errors';
import { convertToDxf } from '@xcad/cad/dxf-writer/convert';
import { writeDxf } from '@xcad/cad/dxf-writer/writer';
import { pdfToDrawing } from '@xcad/cad/pdf/index';
import { serveConversions, type ConversionFailure, type ConversionOutcome, type ConversionRequest, type DxfTarget } from './worker-protocol';

// Issue 7: the entry of a conversion worker thread (started through worker-boot.mjs). It converts
// with packages/cad and sorts what went wrong into the drawing's faults; the thread's time and
// heap limits are the runner's business.

function failureOf(error: unknown, elapsedMs: number, readerLimitMs: number | undefined): { failure: ConversionFailure; detail: string } {
  const detail = error instanceof Error ? error.message : String(error);
  if (error instanceof CadReadError) {
    // The DWG reader is stopped at the job's time limit and then reports a read failure: the
    // drawing took too long, it is not necessarily damaged.
    if (readerLimitMs !== undefined && elapsedMs >= readerLimitMs) return { failure: 'timeout', detail };
    return { failure: error.reason === 'empty' ? 'empty' : 'unreadable', detail };
  }
  if (error instanceof CadConvertError) return { failure: error.reason, detail };
  return { failure: 'internal', detail };
}

/** cad2ver and pdf2cad: one DXF of the version asked. */
async function writeDxfOf(input: Uint8Array, name: string | undefined, target: DxfTarget): Promise<{ data: Uint8Array; notes: number }> {
  if (target.fromPdf) {
    const { drawing, notes } = await pdfToDrawing(input, target.pages === undefined ? {} : { pages: target.pages });
    const written = writeDxf(drawing, { version: target.version });
    return { data: written.bytes, notes: notes.length + written.notes.length };
  }
  const converted = await convertToDxf(input, name ?? 'drawing.dwg', { version: target.version });
  return { data: converted.bytes, notes: converted.notes.length };
}

async function convert(request: ConversionRequest): Promise<ConversionOutcome> {
  const started = performance.now();
  try {
    if (request.dxf !== undefined) {
      const dxf = await writeDxfOf(request.input, request.options.name, request.dxf);
      return { ok: true, outputs: [{ layout: undefined, data: dxf.data }], warnings: dxf.notes };
    }
    const result = await convertDrawing(request.input, request.options);
    return { ok: true, outputs: result.outputs.map((output) => ({ layout: output.name, data: output.data })), warnings: result.warnings.length };
  } catch (error) {
    return { ok: false, ...failureOf(error, performance.now() - started, request.options.dwgTimeoutMs) };
  }
}

serveConversions(convert);
