export { readDxf, detectDxf, type ReadOptions, type ReadResult } from './reader';
export { blockClip, IDENTITY_3X4 } from './clip';
export { decodeEscapes, encodingForCodePage, getDecoder, releaseName, type Decoder } from './codepage';
