import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '@xcad/db';
import { assertDistinctKeys, type Charge, type Consumed, type CounterState, type LimitStore } from './limit-store';

// The limit store in the main database (table limit_counter), for deployments without Redis: every
// API process on the database shares the counts. A request's charges are one upsert that adds
// their units (or opens new windows) and answers the counts, in a transaction rolled back when one
// goes over, so a request takes all or nothing. Rows are written in key order, so two requests
// never wait on each other's rows in opposite orders (PostgreSQL locks the rows an upsert touches).

class Refused extends Error {
  constructor(
    readonly key: string,
    readonly retryAfterMs: number,
  ) {
    super(`limit reached: ${key}`);
  }
}

function bigint(value: number) {
  return sql<number>`cast(${value} as bigint)`;
}

/**
 * Adds each charge's units in one upsert (a counter whose window ended starts a new one) and
 * answers the counts after it, by key. Rows are written in the charges' order: callers sort them.
 */
async function addUnits(trx: Transaction<Database>, charges: readonly Charge[], now: number): Promise<Map<string, CounterState>> {
  if (charges.length === 0) return new Map();
  const isEnded = sql<boolean>`limit_counter.window_end <= ${bigint(now)}`;
  const rows = await trx
    .insertInto('limit_counter')
    .values(charges.map((charge) => ({ key: charge.key, count: charge.cost, window_end: now + charge.windowMs })))
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet({
        count: sql<number>`case when ${isEnded} then excluded.count else limit_counter.count + excluded.count end`,
        window_end: sql<number>`case when ${isEnded} then excluded.window_end else limit_counter.window_end end`,
      }),
    )
    .returning(['key', 'count', 'window_end'])
    .execute();
  return new Map(rows.map((row) => [row.key, { count: Number(row.count), windowEnd: Number(row.window_end) }]));
}

async function statesOf(db: Kysely<Database> | Transaction<Database>, keys: readonly string[], now: number): Promise<CounterState[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .selectFrom('limit_counter')
    .selectAll()
    .where('key', 'in', [...keys])
    .where('window_end', '>', now)
    .execute();
  return keys.map((key) => {
    const row = rows.find((candidate) => candidate.key === key);
    return row === undefined ? { count: 0, windowEnd: 0 } : { count: Number(row.count), windowEnd: Number(row.window_end) };
  });
}

export class DatabaseLimitStore implements LimitStore {
  readonly kind = 'database';

  constructor(private readonly db: Kysely<Database>) {}

  async consume(charges: readonly Charge[], now: number): Promise<Consumed> {
    assertDistinctKeys(charges);
    const sorted = [...charges].sort((left, right) => (left.key < right.key ? -1 : 1));
    try {
      const counts = await this.db.transaction().execute(async (trx) => {
        const checked = sorted.filter((charge) => charge.cost === 0);
        const states = await addUnits(
          trx,
          sorted.filter((charge) => charge.cost > 0),
          now,
        );
        for (const [index, state] of (
          await statesOf(
            trx,
            checked.map((charge) => charge.key),
            now,
          )
        ).entries())
          states.set(checked[index]!.key, state);
        // The first charge (in the caller's order) that went over is the one the refusal names.
        return charges.map((charge) => {
          const state = states.get(charge.key) ?? { count: 0, windowEnd: 0 };
          if (state.count > charge.limit) throw new Refused(charge.key, state.windowEnd > now ? state.windowEnd - now : charge.windowMs);
          return state.count;
        });
      });
      return { ok: true, counts };
    } catch (error) {
      if (error instanceof Refused) return { ok: false, key: error.key, retryAfterMs: error.retryAfterMs };
      throw error;
    }
  }

  async refund(charges: ReadonlyArray<Pick<Charge, 'key' | 'cost'>>, now: number): Promise<void> {
    const given = charges.filter((charge) => charge.cost > 0);
    if (given.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (const charge of given) {
        await trx
          .updateTable('limit_counter')
          .set({ count: sql<number>`count - ${bigint(charge.cost)}` })
          .where('key', '=', charge.key)
          .where('window_end', '>', now)
          .execute();
      }
      // A window back at zero is forgotten, so the next unit opens a whole new one.
      await trx
        .deleteFrom('limit_counter')
        .where(
          'key',
          'in',
          given.map((charge) => charge.key),
        )
        .where('count', '<=', 0)
        .execute();
    });
  }

  read(keys: readonly string[], now: number): Promise<CounterState[]> {
    return statesOf(this.db, keys, now);
  }

  async reset(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.db
      .deleteFrom('limit_counter')
      .where('key', 'in', [...keys])
      .execute();
  }

  async purge(now: number): Promise<number> {
    const result = await this.db.deleteFrom('limit_counter').where('window_end', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The database belongs to the app, which closes it. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
