export { writeDxf, DXF_VERSIONS, ACADVER, type DxfVersion, type WriteDxfOptions, type WriteDxfResult } from './writer';
export { convertToDxf, type ConvertToDxfOptions, type ConvertToDxfResult } from './convert';
