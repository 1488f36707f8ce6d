/**
 * @xcad/cad-dwg: DWG → the @xcad/cad drawing model through LibreDWG (WebAssembly).
 * GPL-3.0-or-later. The engine never imports this package: it runs `main.ts` as a separate
 * program (docs/decisions/0016-dwg-reader-licence.md).
 */
export { readDwgBytes, DwgReadError, type DwgReadOptions } from './read';
export { dwgSignature, isSupportedSignature } from './version';
