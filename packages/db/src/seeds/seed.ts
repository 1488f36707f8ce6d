import type { Executor } from '../executor';

export interface Seed {
  name: string;
  /** Must be idempotent: insert what is missing, never overwrite what an operator changed. */
  run(db: Executor): Promise<void>;
}
