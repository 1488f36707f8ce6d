export { writeDwg, DWG_WRITE_VERSIONS, DwgWriteError, type DwgVersion, type WriteDwgOptions, type WriteDwgResult } from './writer';
export { DWG_ACADVER } from './constants';
