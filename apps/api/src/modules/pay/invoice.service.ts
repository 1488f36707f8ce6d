import { ApiError, PAY_ERRORS, yuanOfFen, type TInvoice, type TInvoiceApplication } from '@xcad/protocol';
import { isUniqueViolation } from '@xcad/db';
import type { PayDeps } from './pay.deps';
import { insertInvoice, invoicesOf, orderByNo, type InvoiceWithOrder } from './pay.repository';

// Decision 0018: invoice applications. One per paid order of the applicant; `submitted` until the
// operator issues it (`npm run invoice:issue -- ORDERNO`, invoice.cli.ts).

function invoiceOf(row: InvoiceWithOrder): TInvoice {
  return {
    orderno: row.orderno,
    titletype: row.title_type,
    title: row.title,
    taxno: row.tax_no,
    email: row.email,
    address: row.address,
    phone: row.phone,
    bank: row.bank,
    bankaccount: row.bank_account,
    state: row.state,
    amount: yuanOfFen(row.amount_fen),
    createtime: Number(row.created_at),
    issuedtime: row.issued_at === null ? null : Number(row.issued_at),
  };
}

export async function applyForInvoice(deps: PayDeps, userId: number, application: TInvoiceApplication): Promise<TInvoice> {
  const order = await orderByNo(deps.db, application.orderno);
  // Someone else's order reads as no order at all: order numbers must not be probed this way.
  if (order === undefined || order.user_id !== userId)
    throw ApiError.business(PAY_ERRORS.orderUnknown, `invoice for unknown order ${application.orderno}`);
  if (order.state !== 'paid') throw ApiError.business(PAY_ERRORS.invoiceNotPaid, `invoice for ${order.state} order`);
  // Decision 0043: a fully refunded order has nothing left to invoice.
  if (order.refunded_fen >= order.amount_fen) throw ApiError.business(PAY_ERRORS.invoiceNotPaid, 'invoice for a refunded order');
  try {
    await insertInvoice(deps.db, {
      order_id: order.id,
      user_id: userId,
      title_type: application.titletype,
      title: application.title,
      tax_no: application.taxno,
      email: application.email,
      address: application.address,
      phone: application.phone,
      bank: application.bank,
      bank_account: application.bankaccount,
      created_at: Math.floor(deps.clock() / 1000),
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw ApiError.business(PAY_ERRORS.invoiceExists, `second invoice for ${order.orderno}`);
    throw error;
  }
  const [row] = await invoicesOf(deps.db, { orderIds: [order.id] });
  if (row === undefined) throw new Error(`invoice of ${order.orderno} not found after insert`);
  return invoiceOf(row);
}

export async function userInvoices(deps: PayDeps, userId: number): Promise<TInvoice[]> {
  return (await invoicesOf(deps.db, { userId })).map(invoiceOf);
}
