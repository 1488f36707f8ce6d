import type { Executor } from '@xcad/db';

// The back office's reads of the pay module (decision 0042): a user's memberships with their
// product names, and the products a membership can be granted for.

export async function membershipsWithProducts(db: Executor, userId: number) {
  return db
    .selectFrom('pay_product')
    .leftJoin('membership', (join) => join.onRef('membership.product_id', '=', 'pay_product.product_id').on('membership.user_id', '=', userId))
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
