import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAlipayBill, parseWechatTradebill, reconcileStatement, type LedgerOrder } from './statement';

// Decision 0043: the providers' daily statements, recorded here in their own formats (WeChat Pay's
// tradebill as UTF-8 with its backticks, Alipay's 业务明细 in GBK with its #-notes), read and
// compared with our orders both ways.

const wechatText = readFileSync(new URL('./statements/wechat-tradebill-2026-11-28.csv', import.meta.url), 'utf8');
const alipayText = new TextDecoder('gbk').decode(readFileSync(new URL('./statements/alipay-bill-2026-11-28.csv', import.meta.url)));

describe('statements', () => {
  it("reads WeChat Pay's tradebill: payments and refunds, without the totals", () => {
    expect(parseWechatTradebill(wechatText)).toEqual([
      {
        orderno: 'XC2026112809121012345601',
        transactionId: '4200002601202611281234567801',
        kind: 'payment',
        amountFen: 6800,
        refundNo: null,
      },
      {
        orderno: 'XC2026112813395512345602',
        transactionId: '4200002601202611281234567802',
        kind: 'payment',
        amountFen: 3800,
        refundNo: null,
      },
      {
        orderno: 'XC2026112809121012345601',
        transactionId: '4200002601202611281234567801',
        kind: 'refund',
        amountFen: 1000,
        refundNo: 'RF2026112820050001',
      },
    ]);
  });

  it("reads Alipay's 业务明细 (GBK): trades and refunds, without the notes", () => {
    expect(parseAlipayBill(alipayText)).toEqual([
      {
        orderno: 'XC2026112810000012345611',
        transactionId: '2026112822001480381400000001',
        kind: 'payment',
        amountFen: 8800,
        refundNo: null,
      },
      {
        orderno: 'XC2026112815000012345612',
        transactionId: '2026112822001480381400000002',
        kind: 'payment',
        amountFen: 6800,
        refundNo: null,
      },
      {
        orderno: 'XC2026112810000012345611',
        transactionId: '2026112822001480381400000001',
        kind: 'refund',
        amountFen: 8800,
        refundNo: 'RF2026112818300001',
      },
    ]);
  });

  it('refuses a file that is not a statement', () => {
    expect(parseWechatTradebill('hello,world\n`1,`2')).toMatch(/^statement without column/);
    expect(parseAlipayBill('')).toMatch(/^statement without column/);
  });
});

describe('reconciliation', () => {
  const rows = parseWechatTradebill(wechatText);
  if (typeof rows === 'string') throw new Error(rows);

  it('reports exactly the order missing from the statement and the one whose amount differs', () => {
    const ours: LedgerOrder[] = [
      { orderno: 'XC2026112809121012345601', state: 'paid', amountFen: 6800, refundedFen: 1000 },
      // The statement says 38.00 was paid.
      { orderno: 'XC2026112813395512345602', state: 'paid', amountFen: 4800, refundedFen: 0 },
      // Paid here, the provider never listed it.
      { orderno: 'XC2026112816000012345603', state: 'paid', amountFen: 8800, refundedFen: 0 },
      // Unpaid and closed here, and absent there: nothing to report.
      { orderno: 'XC2026112817000012345604', state: 'closed', amountFen: 4800, refundedFen: 0 },
    ];
    expect(reconcileStatement(rows, ours)).toEqual([
      { orderno: 'XC2026112813395512345602', kind: 'amount', what: 'payment', ourFen: 4800, providerFen: 3800 },
      { orderno: 'XC2026112816000012345603', kind: 'missing-at-provider', ourFen: 8800 },
    ]);
  });

  it('reports a payment the provider took for an order not paid here, and refunds that differ', () => {
    const ours: LedgerOrder[] = [
      { orderno: 'XC2026112809121012345601', state: 'paid', amountFen: 6800, refundedFen: 0 },
      { orderno: 'XC2026112813395512345602', state: 'closed', amountFen: 3800, refundedFen: 0 },
    ];
    expect(reconcileStatement(rows, ours)).toEqual([
      { orderno: 'XC2026112809121012345601', kind: 'amount', what: 'refund', ourFen: 0, providerFen: 1000 },
      { orderno: 'XC2026112813395512345602', kind: 'not-paid-here', providerFen: 3800, ourState: 'closed' },
    ]);
  });

  it('finds nothing when both agree', () => {
    const ours: LedgerOrder[] = [
      { orderno: 'XC2026112809121012345601', state: 'paid', amountFen: 6800, refundedFen: 1000 },
      { orderno: 'XC2026112813395512345602', state: 'paid', amountFen: 3800, refundedFen: 0 },
    ];
    expect(reconcileStatement(rows, ours)).toEqual([]);
  });
});
