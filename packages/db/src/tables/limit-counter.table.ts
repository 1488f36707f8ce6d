import type { Selectable } from 'kysely';

/**
 * A counter of the database limit store (decision 0029): units taken under `key` in the window
 * that ends at `window_end` (epoch milliseconds); after it the count starts again from zero.
 */
export interface LimitCounterTable {
  key: string;
  count: number;
  window_end: number;
}

export type LimitCounterRow = Selectable<LimitCounterTable>;
