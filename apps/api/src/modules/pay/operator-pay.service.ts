import type { Kysely } from 'kysely';
import type { Database } from '@xcad/db';
import { ApiError, OPERATOR_ERRORS, type TMembershipChange, type TOperatorUserPay } from '@xcad/protocol';
import { auditOfTarget, recordAudit, type AuditActor } from '../audit/audit.service';
import { countInvoicesSubmitted, membershipsWithProducts, paidSince, productName, userExists } from './operator-pay.repository';
import { changeMembershipExpiry, invoicesOf, orderItemsOf, ordersOfUser } from './pay.repository';

// The back office's calls of the pay module for one user (decision 0042): their memberships, orders,
// invoices and membership history, and the operator's grant, extension or revocation of a
// membership, which goes through the one grant path (pay.repository changeMembershipExpiry) and is
// audited in the same transaction.

const DAY_SECONDS = 86_400;
const RECENT_ORDERS = 50;

function notFound(logMessage: string): ApiError {
  const { code, status, message } = OPERATOR_ERRORS.notFound;
  return new ApiError({ code, httpStatus: status, userMessage: message, logMessage });
}

const MEMBERSHIP_KIND: Readonly<Record<string, 'grant' | 'extend' | 'revoke'>> = {
  'membership.grant': 'grant',
  'membership.extend': 'extend',
  'membership.revoke': 'revoke',
};

export async function userPayOverview(db: Kysely<Database>, nowSeconds: number, userId: number): Promise<TOperatorUserPay> {
  if (!(await userExists(db, userId))) throw notFound(`pay overview of unknown user ${userId}`);
  const [memberships, orders, invoices, audit] = await Promise.all([
    membershipsWithProducts(db, userId),
    ordersOfUser(db, userId, { nowSeconds, limit: RECENT_ORDERS, offset: 0 }),
    invoicesOf(db, { userId }),
    auditOfTarget(db, 'user', userId),
  ]);
  const items = await orderItemsOf(
    db,
    orders.rows.map((order) => order.id),
  );
  const history: TOperatorUserPay['history'] = [];
  for (const entry of audit) {
    const kind = MEMBERSHIP_KIND[entry.action];
    const after = entry.after as { productId?: unknown; expiry?: unknown } | null;
    if (kind === undefined || after === null || typeof after.productId !== 'number') continue;
    const expiry = typeof after.expiry === 'number' ? after.expiry : null;
    history.push({ at: entry.at, productId: after.productId, kind, expiry, by: entry.operatorName, detail: '', reason: entry.reason });
  }
  for (const order of orders.rows) {
    if (order.state !== 'paid' || order.paid_at === null) continue;
    for (const item of items.filter((candidate) => candidate.order_id === order.id)) {
      history.push({
        at: Number(order.paid_at),
        productId: item.product_id,
        kind: 'purchase',
        expiry: null,
        by: order.orderno,
        detail: item.name,
        reason: '',
      });
    }
  }
  history.sort((a, b) => b.at - a.at);
  return {
    memberships: memberships.map((row) => {
      const expiry = Number(row.auth_value ?? 0);
      return { productId: row.product_id, productName: row.name, expiry, active: expiry > nowSeconds };
    }),
    orders: orders.rows.map((order) => ({
      orderno: order.orderno,
      state: order.state === 'unpaid' && Number(order.expires_at) <= nowSeconds ? 'closed' : order.state,
      amountFen: Number(order.amount_fen),
      provider: order.provider,
      createdAt: Number(order.created_at),
      paidAt: order.paid_at === null ? null : Number(order.paid_at),
      items: items
        .filter((item) => item.order_id === order.id)
        .map((item) => item.name)
        .join('、'),
    })),
    invoices: invoices.map((invoice) => ({
      orderno: invoice.orderno,
      state: invoice.state,
      title: invoice.title,
      amountFen: Number(invoice.amount_fen),
      createdAt: Number(invoice.created_at),
    })),
    history,
  };
}

/**
 * Extends (or first grants) a membership by `days` from the later of now and its current expiry,
 * or revokes it (it ends now). Audited with the expiry before and after and the reason.
 */
export async function changeMembershipByOperator(
  db: Kysely<Database>,
  nowSeconds: number,
  actor: AuditActor,
  userId: number,
  change: TMembershipChange,
) {
  if (change.action === 'extend' && change.days === undefined) {
    throw new ApiError({
      code: 10020,
      httpStatus: 400,
      userMessage: '请填写天数',
      logMessage: 'membership extension without days',
      extra: { field: 'days' },
    });
  }
  return db.transaction().execute(async (trx) => {
    if (!(await userExists(trx, userId))) throw notFound(`membership change of unknown user ${userId}`);
    const name = await productName(trx, change.productId);
    if (name === undefined) throw notFound(`membership change of unknown product ${change.productId}`);
    const days = change.days ?? 0;
    const { before, after } = await changeMembershipExpiry(trx, userId, change.productId, nowSeconds, (current) => {
      if (change.action === 'revoke') return Math.min(current ?? 0, nowSeconds);
      const base = current !== undefined && current > nowSeconds ? current : nowSeconds;
      return base + days * DAY_SECONDS;
    });
    const action = change.action === 'revoke' ? 'membership.revoke' : before > nowSeconds ? 'membership.extend' : 'membership.grant';
    await recordAudit(
      trx,
      actor,
      {
        action,
        targetType: 'user',
        targetId: userId,
        before: { productId: change.productId, product: name, expiry: before },
        after: { productId: change.productId, product: name, expiry: after, ...(change.action === 'extend' ? { days } : {}) },
        reason: change.reason,
      },
      nowSeconds,
    );
    return { userId, productId: change.productId, before, after, action };
  });
}

/** Orders paid since `fromAt` (epoch seconds) and their revenue, for the console's dashboard. */
export async function paidOrderFigures(db: Kysely<Database>, fromAt: number): Promise<{ orders: number; revenueFen: number }> {
  return paidSince(db, fromAt);
}

/** Invoice applications waiting to be issued. */
export async function invoicesWaiting(db: Kysely<Database>): Promise<number> {
  return countInvoicesSubmitted(db);
}
