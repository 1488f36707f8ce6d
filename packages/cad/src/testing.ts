/**
 * For the tests and benchmarks of the apps built on the engine: hand-made drawings (hostile inputs,
 * an XCLIP drawing whose every number is known) and the ink comparison of two pictures. Not used by
 * the engine itself.
 */
export * from './hostile.testing';
export { xclipDxf, type ClipOptions } from './display/xclip-fixture';
export { dxfText } from './dxf/test-helpers';
export { companionFixture, COMPANION_PICTURE_PATH, COMPANION_XREF_PATH } from './companions.testing';
export { compareInk, cropAndScale, inkCount, inkMask, type InkMask, type InkScore, type RgbaImage } from './ink-compare';
export { acisRecord, boxSat, cylinderSat } from './display/acis-fixture';
