export * from './types';
export { buildScenes, type BuildOptions } from './builder';
export type { DrawContext, EntityHandler, DashPattern } from './context';
