/** DWG or DXF bytes → DWG of a chosen release: the online version converter's entry (Node side). */
import { openDrawing, type OpenOptions } from '../open';
import type { SaveAsChange } from '../save-as';
import { graphicsLowering } from '../save-as-graphics';
import { writeDwg, type DwgVersion } from './writer';

export interface ConvertToDwgOptions {
  version: DwgVersion;
  /** Passed to `openDrawing` (DWG time limit, forced DXF encoding). */
  open?: OpenOptions;
}

export interface ConvertToDwgResult {
  bytes: Uint8Array;
  /** What the target release made us change (one line per kind). */
  notes: string[];
  /** The same changes, one entry per (type, outcome, how): the save-as report (decision 0037). */
  changes: SaveAsChange[];
  /** What the reader reported about the input. */
  warnings: string[];
}

export async function convertToDwg(bytes: Uint8Array, name: string, options: ConvertToDwgOptions): Promise<ConvertToDwgResult> {
  const { drawing, warnings } = await openDrawing(bytes, name, options.open ?? {});
  const out = writeDwg(drawing, { version: options.version, graphics: graphicsLowering(drawing) });
  return { bytes: out.bytes, notes: out.notes, changes: out.changes, warnings };
}
