export { writeDwg, DwgWriteError, type DwgVersion, type WriteDwgOptions, type WriteDwgResult } from './writer';
export { DWG_ACADVER, DWG_VERSION_NAMES, DWG_WRITE_VERSIONS } from './constants';
export { convertToDwg, type ConvertToDwgOptions, type ConvertToDwgResult } from './convert';
