import { describe, expect, it } from 'vitest';
import { INVOICE_MESSAGES, PAY_MESSAGES, ZInvoiceApplyRequest, ZPayMergeRequest, formatYuan, yuanOfFen } from './pay';

// The rules the invoice form and the API share (decision 0018), and the money helpers.

const company = {
  orderno: 'XC2026112214000012345678',
  titletype: 'company',
  title: '苏州示例机械制造有限公司',
  taxno: '91320500 mA1x2y3z4k',
  email: 'cw@example.cn',
};

function firstIssue(input: unknown): { path: string; message: string } | undefined {
  const result = ZInvoiceApplyRequest.safeParse(input);
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  return issue && { path: String(issue.path[0]), message: issue.message };
}

describe('the invoice form rules', () => {
  it('normalises a company tax id (spaces out, capitals) and leaves the optional VAT details null', () => {
    expect(ZInvoiceApplyRequest.parse(company)).toMatchObject({
      taxno: '91320500MA1X2Y3Z4K',
      address: null,
      phone: null,
      bank: null,
      bankaccount: null,
    });
  });

  it('accepts its own output again: the web client sends what the form parsed', () => {
    const once = ZInvoiceApplyRequest.parse({ ...company, address: '  ', phone: '0512-66661234' });
    expect(ZInvoiceApplyRequest.parse(once)).toEqual(once);
  });

  it('asks a company for its tax id and full name, a person for neither', () => {
    expect(firstIssue({ ...company, taxno: '' })).toEqual({ path: 'taxno', message: INVOICE_MESSAGES.taxNoEmpty });
    expect(firstIssue({ ...company, taxno: '12345678901234567' })).toEqual({ path: 'taxno', message: INVOICE_MESSAGES.taxNoInvalid });
    expect(firstIssue({ ...company, title: '某公司' })).toEqual({ path: 'title', message: INVOICE_MESSAGES.companyTitleTooShort });
    expect(firstIssue({ ...company, titletype: 'personal', title: '王', taxno: '' })).toBeUndefined();
  });

  it.each([
    ['15', '110108123456789'],
    ['18', '91110108MA01ABCD2E'],
    ['20', '11010812345678901234'],
  ])('takes a tax id of %s characters', (_length, taxno) => {
    expect(firstIssue({ ...company, taxno })).toBeUndefined();
  });
});

describe('paymerge package lists', () => {
  it('reads an array or a comma list, and refuses an empty one', () => {
    expect(ZPayMergeRequest.parse({ packageids: '305, 2022', paytype: 'wxpay' }).packageids).toEqual([305, 2022]);
    expect(ZPayMergeRequest.parse({ packageids: [305, '2021'], paytype: 'alipay' }).packageids).toEqual([305, 2021]);
    expect(ZPayMergeRequest.safeParse({ packageids: '', paytype: 'wxpay' }).error?.issues[0]?.message).toBe(PAY_MESSAGES.mergeEmpty);
  });
});

describe('money', () => {
  it('turns fen into yuan and prints prices as the site shows them', () => {
    expect(yuanOfFen(6800)).toBe(68);
    expect(yuanOfFen(1250)).toBe(12.5);
    expect(formatYuan(68)).toBe('¥68');
    expect(formatYuan(12.5)).toBe('¥12.50');
    expect(formatYuan(0.1 + 0.2)).toBe('¥0.30');
  });
});
