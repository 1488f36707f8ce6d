/** Helpers over the drawing model that every reader shares (browser-safe, no dependencies). */
import type { Drawing, Header } from './model';

/** A drawing with `header` and nothing else: the readers fill it in. */
export function emptyDrawing(header: Header): Drawing {
  return {
    header,
    layers: {},
    linetypes: {},
    textStyles: {},
    dimStyles: {},
    blockRecords: [],
    blocks: {},
    layouts: [],
    modelSpace: [],
    imageDefs: {},
    stats: { entities: 0, unknown: {} },
  };
}
