/** DWG or DXF bytes → DXF of a chosen version: the online version converter's entry (Node side). */
import { openDrawing, type OpenOptions } from '../open';
import type { SaveAsChange } from '../save-as';
import { graphicsLowering } from '../save-as-graphics';
import { writeDxf, type DxfVersion } from './writer';

export interface ConvertToDxfOptions {
  version: DxfVersion;
  binary?: boolean;
  /** Passed to `openDrawing` (DWG time limit, forced DXF encoding). */
  open?: OpenOptions;
}

export interface ConvertToDxfResult {
  bytes: Uint8Array;
  /** What the target version made us change (one line per kind). */
  notes: string[];
  /** The same changes, one entry per (type, outcome, how): the save-as report (decision 0037). */
  changes: SaveAsChange[];
  /** What the reader reported about the input. */
  warnings: string[];
}

export async function convertToDxf(bytes: Uint8Array, name: string, options: ConvertToDxfOptions): Promise<ConvertToDxfResult> {
  const { drawing, warnings } = await openDrawing(bytes, name, options.open ?? {});
  const out = writeDxf(drawing, { version: options.version, binary: options.binary === true, graphics: graphicsLowering(drawing) });
  return { bytes: out.bytes, notes: out.notes, changes: out.changes, warnings };
}
