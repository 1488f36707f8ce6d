import type { Executor, PayProviderName, PayRefundRow, PayRefundState } from '@xcad/db';

// Decision 0043: the queries of refunds. An order's refunded_fen counts the refunds succeeded and
// those still with the provider, so two refunds asked at once can never give back more than was paid.

export async function refundByNo(db: Executor, refundNo: string): Promise<PayRefundRow | undefined> {
  return db.selectFrom('pay_refund').selectAll().where('refund_no', '=', refundNo).executeTakeFirst();
}

export async function refundsOfOrders(db: Executor, orderIds: readonly number[]): Promise<PayRefundRow[]> {
  if (orderIds.length === 0) return [];
  return db
    .selectFrom('pay_refund')
    .selectAll()
    .where('order_id', 'in', [...orderIds])
    .orderBy('id')
    .execute();
}

/** Holds `amountFen` of the order for a refund; false when that is more than is left to refund. */
export async function reserveRefund(db: Executor, orderId: number, amountFen: number): Promise<boolean> {
  const result = await db
    .updateTable('pay_order')
    .set((eb) => ({ refunded_fen: eb('refunded_fen', '+', amountFen) }))
    .where('id', '=', orderId)
    .where('state', '=', 'paid')
    .where((eb) => eb(eb('refunded_fen', '+', amountFen), '<=', eb.ref('amount_fen')))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Gives back a reservation (the refund failed: nothing moved). */
export async function releaseRefund(db: Executor, orderId: number, amountFen: number): Promise<void> {
  await db
    .updateTable('pay_order')
    .set((eb) => ({ refunded_fen: eb('refunded_fen', '-', amountFen) }))
    .where('id', '=', orderId)
    .execute();
}

export async function insertRefund(
  db: Executor,
  refund: {
    refundNo: string;
    orderId: number;
    provider: PayProviderName;
    amountFen: number;
    reason: string;
    operatorUserId: number | null;
    createdAt: number;
  },
): Promise<void> {
  await db
    .insertInto('pay_refund')
    .values({
      refund_no: refund.refundNo,
      order_id: refund.orderId,
      provider: refund.provider,
      amount_fen: refund.amountFen,
      reason: refund.reason,
      operator_user_id: refund.operatorUserId,
      created_at: refund.createdAt,
    })
    .execute();
}

/**
 * processing -> succeeded or failed, once: of any number of notices and answers about one refund
 * exactly one sees the row change (the one that then takes the membership back).
 */
export async function finishRefund(
  db: Executor,
  refundNo: string,
  outcome: { state: Exclude<PayRefundState, 'processing'>; providerRefundId: string | null; detail: string | null; finishedAt: number },
): Promise<boolean> {
  const result = await db
    .updateTable('pay_refund')
    .set({
      state: outcome.state,
      provider_refund_id: outcome.providerRefundId,
      detail: outcome.detail,
      finished_at: outcome.finishedAt,
    })
    .where('refund_no', '=', refundNo)
    .where('state', '=', 'processing')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function setRefundProviderId(db: Executor, refundNo: string, providerRefundId: string): Promise<void> {
  await db.updateTable('pay_refund').set({ provider_refund_id: providerRefundId }).where('refund_no', '=', refundNo).execute();
}

/** An invoice of the order (issued or only applied for) must be reversed with a red-letter invoice (红冲). */
export async function flagInvoiceReversal(db: Executor, orderId: number): Promise<boolean> {
  const result = await db.updateTable('invoice').set({ reversal_due: 1 }).where('order_id', '=', orderId).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
