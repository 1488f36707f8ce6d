export type * from './model';
export { CadReadError, type CadReadErrorReason } from './errors';
export { readDxf, detectDxf, type ReadOptions, type ReadResult } from './dxf/index';
