import { fenOf } from './pay-adapter';

// Decision 0043: reconciliation. Each provider's daily statement (WeChat Pay's tradebill, Alipay's
// 业务明细 from alipay.data.dataservice.bill.downloadurl.query) is read into the same rows and
// compared with our orders of that day, both ways: a payment the provider has and we do not
// (or not as paid), an order paid here the provider does not list, and one whose amount differs.

/** One payment or refund line of a statement. */
export interface StatementRow {
  orderno: string;
  transactionId: string;
  kind: 'payment' | 'refund';
  /** Fen: the amount paid, or refunded. */
  amountFen: number;
  /** For a refund, our refund number. */
  refundNo: string | null;
}

/** A line of a CSV (quotes as RFC 4180 writes them); WeChat prefixes every value with a backtick. */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index];
    if (quoted) {
      if (char === '"' && line[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else cell += char;
  }
  cells.push(cell);
  return cells.map((value) => value.trim().replace(/^`/, ''));
}

function columnsOf(header: string[], names: readonly string[]): number[] | string {
  const indexes = names.map((name) => header.indexOf(name));
  const missing = names.filter((_name, index) => indexes[index] === -1);
  return missing.length > 0 ? `statement without column ${missing.join(', ')}` : indexes;
}

/**
 * WeChat Pay's tradebill (bill_type ALL): a header line, one line per payment or refund (every
 * value behind a backtick), then the totals (总交易单数...). Amounts in yuan. A string says why not.
 */
export function parseWechatTradebill(text: string): StatementRow[] | string {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '');
  const header = csvCells(lines[0] ?? '');
  const columns = columnsOf(header, ['微信订单号', '商户订单号', '交易状态', '订单金额', '商户退款单号', '退款金额']);
  if (typeof columns === 'string') return columns;
  const [tx, orderno, state, amount, refundNo, refund] = columns as [number, number, number, number, number, number];
  const rows: StatementRow[] = [];
  for (const line of lines.slice(1)) {
    if (!line.startsWith('`')) break;
    const cells = csvCells(line);
    const isRefund = cells[state] === 'REFUND';
    const fen = fenOf(cells[isRefund ? refund : amount] ?? '');
    if (fen === undefined) return `amount ${cells[isRefund ? refund : amount] ?? ''} of ${cells[orderno] ?? ''} is not an amount`;
    rows.push({
      orderno: cells[orderno] ?? '',
      transactionId: cells[tx] ?? '',
      kind: isRefund ? 'refund' : 'payment',
      amountFen: fen,
      refundNo: isRefund ? (cells[refundNo] ?? null) : null,
    });
  }
  return rows;
}

/**
 * Alipay's 业务明细 (the CSV of the bill zip, decoded from GBK): lines starting with # are notes,
 * then a header, the trades (业务类型 交易 or 退款), and #-notes with the totals. A refund's
 * amount is negative there. A string says why not.
 */
export function parseAlipayBill(text: string): StatementRow[] | string {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '' && !line.startsWith('#'));
  const header = csvCells(lines[0] ?? '');
  const columns = columnsOf(header, ['支付宝交易号', '商户订单号', '业务类型', '订单金额（元）', '退款批次号/请求号']);
  if (typeof columns === 'string') return columns;
  const [tx, orderno, kind, amount, refundNo] = columns as [number, number, number, number, number];
  const rows: StatementRow[] = [];
  for (const line of lines.slice(1)) {
    const cells = csvCells(line);
    const isRefund = cells[kind] === '退款';
    const fen = fenOf((cells[amount] ?? '').replace(/^-/, ''));
    if (fen === undefined) return `amount ${cells[amount] ?? ''} of ${cells[orderno] ?? ''} is not an amount`;
    rows.push({
      orderno: cells[orderno] ?? '',
      transactionId: cells[tx] ?? '',
      kind: isRefund ? 'refund' : 'payment',
      amountFen: fen,
      refundNo: isRefund ? (cells[refundNo] ?? null) : null,
    });
  }
  return rows;
}

/** Our side of one order for the day compared. */
export interface LedgerOrder {
  orderno: string;
  state: 'unpaid' | 'paid' | 'closed';
  amountFen: number;
  /** Fen refunded (succeeded) on that day. */
  refundedFen: number;
}

export type Discrepancy =
  /** The provider took a payment for an order we do not have as paid. */
  | { orderno: string; kind: 'not-paid-here'; providerFen: number; ourState: LedgerOrder['state'] | 'unknown' }
  /** Paid here, absent from the provider's statement. */
  | { orderno: string; kind: 'missing-at-provider'; ourFen: number }
  /** Both have it, for different amounts (a payment, or the refunds of the day). */
  | { orderno: string; kind: 'amount'; what: 'payment' | 'refund'; ourFen: number; providerFen: number };

/** Every order whose state or amount disagrees, both ways, in order number order. */
export function reconcileStatement(rows: readonly StatementRow[], ours: readonly LedgerOrder[]): Discrepancy[] {
  const found: Discrepancy[] = [];
  const byNo = new Map(ours.map((order) => [order.orderno, order]));
  const paidAtProvider = new Map<string, number>();
  const refundedAtProvider = new Map<string, number>();
  for (const row of rows) {
    const into = row.kind === 'payment' ? paidAtProvider : refundedAtProvider;
    into.set(row.orderno, (into.get(row.orderno) ?? 0) + row.amountFen);
  }
  for (const [orderno, providerFen] of paidAtProvider) {
    const order = byNo.get(orderno);
    if (order?.state !== 'paid') found.push({ orderno, kind: 'not-paid-here', providerFen, ourState: order?.state ?? 'unknown' });
    else if (order.amountFen !== providerFen)
      found.push({ orderno, kind: 'amount', what: 'payment', ourFen: order.amountFen, providerFen });
  }
  for (const order of ours) {
    if (order.state === 'paid' && !paidAtProvider.has(order.orderno)) {
      found.push({ orderno: order.orderno, kind: 'missing-at-provider', ourFen: order.amountFen });
    }
    const providerRefund = refundedAtProvider.get(order.orderno) ?? 0;
    if (providerRefund !== order.refundedFen) {
      found.push({ orderno: order.orderno, kind: 'amount', what: 'refund', ourFen: order.refundedFen, providerFen: providerRefund });
    }
  }
  return found.sort((a, b) => a.orderno.localeCompare(b.orderno));
}
