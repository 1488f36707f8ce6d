import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '@xcad/db';
import { assertDistinctKeys, type Charge, type Consumed, type CounterState, type LimitStore } from './limit-store';

// The limit store in the main database (table limit_counter), for deployments without Redis: every
// API process on the database shares the counts. A charge is one upsert that adds its units (or
// opens a new window) and answers the count; the charges of a request run in one transaction in
// key order, rolled back when one goes over, so a request takes all or nothing and two requests
// never wait on each other's rows in opposite orders (PostgreSQL locks the row an upsert touches).

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

async function addUnits(trx: Transaction<Database>, charge: Charge, now: number): Promise<CounterState> {
  const isEnded = sql<boolean>`limit_counter.window_end <= ${bigint(now)}`;
  const row = await trx
    .insertInto('limit_counter')
    .values({ key: charge.key, count: charge.cost, window_end: now + charge.windowMs })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet({
        count: sql<number>`case when ${isEnded} then ${bigint(charge.cost)} else limit_counter.count + ${bigint(charge.cost)} end`,
        window_end: sql<number>`case when ${isEnded} then ${bigint(now + charge.windowMs)} else limit_counter.window_end end`,
      }),
    )
    .returning(['count', 'window_end'])
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), windowEnd: Number(row.window_end) };
}

async function statesOf(db: Kysely<Database> | Transaction<Database>, keys: readonly string[], now: number): Promise<CounterState[]> {
  if (keys.length === 0) return [];
  const rows = await db.selectFrom('limit_counter').selectAll().where('key', 'in', [...keys]).where('window_end', '>', now).execute();
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
    const order = charges.map((_, index) => index).sort((left, right) => (charges[left]!.key < charges[right]!.key ? -1 : 1));
    try {
      const counts = await this.db.transaction().execute(async (trx) => {
        const after = new Array<number>(charges.length).fill(0);
        for (const index of order) {
          const charge = charges[index]!;
          const state = charge.cost === 0 ? (await statesOf(trx, [charge.key], now))[0]! : await addUnits(trx, charge, now);
          if (state.count > charge.limit) throw new Refused(charge.key, state.windowEnd > now ? state.windowEnd - now : charge.windowMs);
          after[index] = state.count;
        }
        return after;
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
      await trx.deleteFrom('limit_counter').where('key', 'in', given.map((charge) => charge.key)).where('count', '<=', 0).execute();
    });
  }

  read(keys: readonly string[], now: number): Promise<CounterState[]> {
    return statesOf(this.db, keys, now);
  }

  async reset(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.db.deleteFrom('limit_counter').where('key', 'in', [...keys]).execute();
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
