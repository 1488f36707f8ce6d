export { writeDwg, DWG_WRITE_VERSIONS, DwgWriteError, type DwgVersion, type WriteDwgOptions, type WriteDwgResult } from './writer';
export { DWG_ACADVER, DWG_VERSION_NAMES } from './constants';
export { convertToDwg, type ConvertToDwgOptions, type ConvertToDwgResult } from './convert';
