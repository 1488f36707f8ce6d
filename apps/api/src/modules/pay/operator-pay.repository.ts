import type { Executor } from '@xcad/db';

// The back office's reads of the pay module (decision 0042): a user's memberships with their
// product names, and the products a membership can be granted for.

export async function membershipsWithProducts(db: Executor, userId: number) {
  return db
    .selectFrom('pay_product')
    .leftJoin('membership', (join) =>
      join.onRef('membership.product_id', '=', 'pay_product.product_id').on('membership.user_id', '=', userId),
    )
    .select(['pay_product.product_id', 'pay_product.name', 'membership.auth_value'])
    .orderBy('pay_product.sort')
    .orderBy('pay_product.product_id')
    .execute();
}

export async function productName(db: Executor, productId: number): Promise<string | undefined> {
  const row = await db.selectFrom('pay_product').select('name').where('product_id', '=', productId).executeTakeFirst();
  return row?.name;
}

export async function userExists(db: Executor, userId: number): Promise<boolean> {
  return (await db.selectFrom('app_user').select('id').where('id', '=', userId).executeTakeFirst()) !== undefined;
}

/** Orders paid since `fromAt` and their total (fen). */
export async function paidSince(db: Executor, fromAt: number): Promise<{ orders: number; revenueFen: number }> {
  const row = await db
    .selectFrom('pay_order')
    .select((eb) => [eb.fn.countAll<string | number>().as('n'), eb.fn.sum<string | number | null>('amount_fen').as('fen')])
    .where('state', '=', 'paid')
    .where('paid_at', '>=', fromAt)
    .executeTakeFirstOrThrow();
  return { orders: Number(row.n), revenueFen: Number(row.fen ?? 0) };
}

export async function countInvoicesSubmitted(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('invoice')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('state', '=', 'submitted')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
