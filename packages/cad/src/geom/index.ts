/**
 * The bottom floor of the CAD engine: vectors, matrices and the OCS, splines, ACI colours and hatch
 * pattern tables. Everything above (model, readers, writers, display list) may use it; it imports
 * nothing else of the engine.
 */
export * from './clip';
export * from './color';
export * from './hatch-lines';
export * from './hatch-patterns';
export * from './matrix';
export * from './spline';
export * from './vector';
