import type { Kysely, Transaction } from 'kysely';
import type { Database } from './database.types';

/** What repositories run on: the database or a transaction the caller owns. */
export type Executor = Kysely<Database> | Transaction<Database>;

export function epochSeconds(date: Date = new Date()): number {
  return Math.floor(date.getTime() / 1000);
}
