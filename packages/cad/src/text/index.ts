/**
 * Text that every host shares (browser-safe): CJK detection, the shipped fonts and the served
 * subsets. Font files on disk are Node's: `@xcad/cad/fonts`.
 */
export { isCjk } from './cjk';
export * from './shipped';
export { FontSubsetError, subsetTrueType, toWoff } from './subset';
