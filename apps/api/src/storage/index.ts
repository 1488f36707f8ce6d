export * from './storage';
export * from './content-type';
export * from './send-stored';
