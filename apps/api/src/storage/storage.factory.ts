import path from 'node:path';
import { repositoryRoot } from '@xcad/db';
import { s3StorageFromEnv } from './s3-storage';
import { LocalDiskStorage, type StorageEnv, type StreamingStorage } from './storage';

// Which storage the process uses, like the sms/pay/oauth factories: the implementations know
// nothing of each other, and only this file knows them all.

/** The storage STORAGE_PROVIDER names: `s3` a bucket (S3_*), else local disk under STORAGE_DIR (relative to the repository root). */
export function storageFromEnv(env: StorageEnv): StreamingStorage {
  if (env.STORAGE_PROVIDER === 's3') return s3StorageFromEnv(env);
  return new LocalDiskStorage(path.resolve(repositoryRoot, env.STORAGE_DIR));
}
