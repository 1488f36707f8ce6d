export { readDxf, detectDxf, type ReadOptions, type ReadResult } from './reader';
