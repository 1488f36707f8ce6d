export * from './storage';
export * from './storage.factory';
export * from './content-type';
export * from './send-stored';
