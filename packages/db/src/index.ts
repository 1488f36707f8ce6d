export * from './database';
export type * from './database.types';
export * from './executor';
export * from './migrate';
export * from './seeds';
export * from './repositories/nonce.repository';
export type * from './tables/request-nonce.table';
export type * from './tables/accounts.table';
export type * from './tables/content.table';
