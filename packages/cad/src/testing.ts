/**
 * Hand-made drawings for the tests of the apps built on the engine (hostile inputs, an XCLIP
 * drawing whose every number is known). Not used by the engine itself.
 */
export * from './hostile.testing';
export { xclipDxf, type ClipOptions } from './display/xclip-fixture';
export { dxfText } from './dxf/test-helpers';
