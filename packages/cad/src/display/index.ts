export * from './types';
export { buildScenes } from './builder';
export type { BuildOptions } from './build-context';
export type { DrawContext, EntityHandler, DashPattern } from './context';
