export type * from './model';
export { CadReadError, type CadReadErrorReason } from './errors';
export { readDxf, detectDxf, type ReadOptions, type ReadResult } from './dxf/index';
export { pdfToDrawing, RASTER_ONLY_MESSAGE, type PdfToDrawingOptions, type PdfToDrawingResult } from './pdf/index';
export { writeDxf, DXF_VERSIONS, type DxfVersion, type WriteDxfOptions, type WriteDxfResult } from './dxf-writer/index';
