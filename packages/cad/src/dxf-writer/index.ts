export { writeDxf, DXF_VERSIONS, ACADVER, type DxfVersion, type WriteDxfOptions, type WriteDxfResult } from './writer';
