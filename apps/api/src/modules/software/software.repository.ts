import type { Database, Executor, NewSoftwareProduct, SoftwareFile, SoftwarePlatform, SoftwareProduct, SoftwareRelease } from '@xcad/db';
import type { Kysely } from 'kysely';

// All SQL of the download pages (decision 0012): the importer's writes, the page's reads and the
// download counter. Callers that need a transaction pass it in.

export interface ProductRows {
  product: NewSoftwareProduct;
  releases: SoftwareRelease[];
  files: SoftwareFile[];
}

export interface StoredProduct {
  product: SoftwareProduct;
  /** Newest first. */
  releases: SoftwareRelease[];
  files: SoftwareFile[];
  /** Every download counted for the product, on every platform it ever had. */
  downloads: number;
}

export async function listProductHashes(db: Executor): Promise<Array<{ key: string; source_hash: string }>> {
  return db.selectFrom('software_product').select(['key', 'source_hash']).execute();
}

/** Deletes products with their releases and files; their counters stay. */
export async function deleteProducts(db: Executor, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db
    .deleteFrom('software_release')
    .where('product_key', 'in', [...keys])
    .execute();
  await db
    .deleteFrom('software_file')
    .where('product_key', 'in', [...keys])
    .execute();
  await db
    .deleteFrom('software_product')
    .where('key', 'in', [...keys])
    .execute();
}

/** Writes a product anew and makes sure each of its platforms has a counter (an existing one is kept). */
export async function insertProduct(db: Executor, rows: ProductRows): Promise<void> {
  await db.insertInto('software_product').values(rows.product).execute();
  if (rows.releases.length > 0) await db.insertInto('software_release').values(rows.releases).execute();
  if (rows.files.length > 0) {
    await db.insertInto('software_file').values(rows.files).execute();
    await db
      .insertInto('software_download')
      .values(rows.files.map((file) => ({ product_key: file.product_key, platform: file.platform, count: 0 })))
      .onConflict((conflict) => conflict.columns(['product_key', 'platform']).doNothing())
      .execute();
  }
}

export async function findProduct(db: Executor, key: string): Promise<StoredProduct | undefined> {
  const product = await db.selectFrom('software_product').selectAll().where('key', '=', key).executeTakeFirst();
  if (product === undefined) return undefined;
  const [releases, files, counters] = await Promise.all([
    db.selectFrom('software_release').selectAll().where('product_key', '=', key).execute(),
    db.selectFrom('software_file').selectAll().where('product_key', '=', key).execute(),
    db.selectFrom('software_download').select('count').where('product_key', '=', key).execute(),
  ]);
  return {
    product,
    releases,
    files,
    // Summed here: SUM over bigint is numeric (a string) in PostgreSQL and an integer in SQLite.
    downloads: counters.reduce((total, row) => total + Number(row.count), 0),
  };
}

export async function findFile(db: Executor, key: string, platform: SoftwarePlatform): Promise<SoftwareFile | undefined> {
  return db.selectFrom('software_file').selectAll().where('product_key', '=', key).where('platform', '=', platform).executeTakeFirst();
}

export interface DownloadHit {
  productKey: string;
  platform: SoftwarePlatform;
  /** A hash of the client's address. */
  client: string;
  /** Epoch seconds. */
  now: number;
  /** A client's downloads of one product within this many seconds count once. */
  windowSeconds: number;
}

/**
 * Counts a download unless the same client had one of the same product counted within the
 * window. One transaction: the client's mark and the counter move together. The mark is one
 * conditional upsert, so two simultaneous requests of one client cannot both count.
 */
export async function countDownload(db: Kysely<Database>, hit: DownloadHit): Promise<boolean> {
  const cutoff = hit.now - hit.windowSeconds;
  const isCounted = await db.transaction().execute(async (trx) => {
    const marked = await trx
      .insertInto('software_download_recent')
      .values({ product_key: hit.productKey, client: hit.client, counted_at: hit.now })
      .onConflict((conflict) =>
        conflict
          .columns(['product_key', 'client'])
          .doUpdateSet({ counted_at: hit.now })
          .where('software_download_recent.counted_at', '<=', cutoff),
      )
      .returning('counted_at')
      .executeTakeFirst();
    if (marked === undefined) return false;
    await trx
      .insertInto('software_download')
      .values({ product_key: hit.productKey, platform: hit.platform, count: 1 })
      .onConflict((conflict) =>
        conflict.columns(['product_key', 'platform']).doUpdateSet((eb) => ({ count: eb('software_download.count', '+', 1) })),
      )
      .execute();
    return true;
  });
  // Marks older than the window are of no further use (the index on counted_at keeps this cheap).
  // Outside the transaction: deleting another client's mark while holding the counter's row lock
  // could deadlock with that client's own count in PostgreSQL.
  if (isCounted) await db.deleteFrom('software_download_recent').where('counted_at', '<', cutoff).execute();
  return isCounted;
}
