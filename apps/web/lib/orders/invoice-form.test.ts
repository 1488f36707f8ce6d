import { ApiClientError, INVOICE_MESSAGES } from '@xcad/protocol';
import { describe, expect, it } from 'vitest';
import {
  firstInvalidField,
  hasVatError,
  initialInvoiceValues,
  invoiceRefusalOf,
  isFieldShown,
  parseInvoiceForm,
  validateInvoiceField,
  validateInvoiceForm,
  type InvoiceFormValues,
} from './invoice-form';

const ORDER_NO = 'XC2025030814050912345678';

function company(overrides: Partial<InvoiceFormValues> = {}): InvoiceFormValues {
  return {
    ...initialInvoiceValues(ORDER_NO),
    titletype: 'company',
    title: '上海迅捷软件科技有限公司',
    taxno: '91310000MA1K123456',
    email: 'finance@example.cn',
    ...overrides,
  };
}

describe('invoice form rules', () => {
  it('shows the server’s messages for an empty form', () => {
    expect(validateInvoiceForm(initialInvoiceValues())).toEqual({
      orderno: INVOICE_MESSAGES.orderNo,
      title: INVOICE_MESSAGES.titleEmpty,
      email: INVOICE_MESSAGES.emailEmpty,
    });
  });

  it('asks a company for its tax id and full name, a person for neither', () => {
    const bare = company({ title: '迅捷', taxno: '' });
    expect(validateInvoiceField(bare, 'taxno')).toBe(INVOICE_MESSAGES.taxNoEmpty);
    expect(validateInvoiceField(bare, 'title')).toBe(INVOICE_MESSAGES.companyTitleTooShort);
    const person = { ...bare, titletype: 'personal' as const };
    expect(validateInvoiceField(person, 'taxno')).toBe('');
    expect(validateInvoiceField(person, 'title')).toBe('');
  });

  it('takes tax ids of 15, 18 or 20 characters, spaces and lower case forgiven', () => {
    expect(validateInvoiceField(company({ taxno: '91310000MA1K12345' }), 'taxno')).toBe(INVOICE_MESSAGES.taxNoInvalid);
    expect(validateInvoiceField(company({ taxno: '310101123456789' }), 'taxno')).toBe('');
    expect(validateInvoiceField(company({ taxno: '9131 0000 ma1k 123456' }), 'taxno')).toBe('');
    expect(validateInvoiceField(company({ taxno: '31010112345678901234' }), 'taxno')).toBe('');
  });

  it('checks the optional VAT details only when they are filled in', () => {
    expect(validateInvoiceForm(company())).toEqual({});
    const wrong = company({ phone: '12345', bankaccount: '6222-0200', address: '地'.repeat(101) });
    expect(validateInvoiceForm(wrong)).toEqual({
      address: INVOICE_MESSAGES.addressTooLong,
      phone: INVOICE_MESSAGES.phoneInvalid,
      bankaccount: INVOICE_MESSAGES.bankAccountInvalid,
    });
    expect(hasVatError(validateInvoiceForm(wrong))).toBe(true);
    expect(hasVatError(validateInvoiceForm(company({ email: 'x' })))).toBe(false);
  });

  it('ignores what a person typed into company fields before switching to 个人', () => {
    const switched = { ...company({ taxno: 'bad', phone: '1' }), titletype: 'personal' as const, title: '张三' };
    expect(isFieldShown('taxno', 'personal')).toBe(false);
    expect(isFieldShown('email', 'personal')).toBe(true);
    expect(validateInvoiceForm(switched)).toEqual({});
    const parsed = parseInvoiceForm(switched);
    expect(parsed.ok && parsed.application).toEqual({
      orderno: ORDER_NO,
      titletype: 'personal',
      title: '张三',
      taxno: '',
      email: 'finance@example.cn',
    });
  });

  it('sends the application trimmed, the tax id upper-cased and empty details left out', () => {
    const parsed = parseInvoiceForm(
      company({
        title: '  上海迅捷软件科技有限公司 ',
        taxno: '91310000ma1k123456',
        email: ' finance@example.cn ',
        bank: ' ',
        phone: ' 021-12345678 ',
      }),
    );
    expect(parsed).toEqual({
      ok: true,
      application: {
        orderno: ORDER_NO,
        titletype: 'company',
        title: '上海迅捷软件科技有限公司',
        taxno: '91310000MA1K123456',
        email: 'finance@example.cn',
        phone: '021-12345678',
      },
    });
  });

  it('focuses the first problem in page order', () => {
    const parsed = parseInvoiceForm(company({ taxno: '', email: '' }));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(firstInvalidField(parsed.errors)).toBe('taxno');
    expect(firstInvalidField({})).toBeUndefined();
  });
});

describe('server refusals', () => {
  it('puts a field rule’s refusal under that field', () => {
    const refused = new ApiClientError({ code: 10020, message: INVOICE_MESSAGES.taxNoInvalid, details: { field: 'taxno' } });
    expect(invoiceRefusalOf(refused, 'fallback')).toEqual({ field: 'taxno', message: INVOICE_MESSAGES.taxNoInvalid, isOrderGone: false });
  });

  it('shows an order already applied for or unpaid above the button, and drops it from the choices', () => {
    const applied = new ApiClientError({ code: 17011, message: INVOICE_MESSAGES.alreadyApplied });
    expect(invoiceRefusalOf(applied, 'fallback')).toEqual({ field: null, message: INVOICE_MESSAGES.alreadyApplied, isOrderGone: true });
    const unpaid = new ApiClientError({ code: 17010, message: INVOICE_MESSAGES.orderNotPaid });
    expect(invoiceRefusalOf(unpaid, 'fallback').isOrderGone).toBe(true);
  });

  it('falls back to its own words for a field it does not have or a network failure', () => {
    const foreign = new ApiClientError({ code: 10020, message: '签名错误', details: { field: 'datasign' } });
    expect(invoiceRefusalOf(foreign, 'fallback')).toEqual({ field: null, message: '签名错误', isOrderGone: false });
    expect(invoiceRefusalOf(new TypeError('Failed to fetch'), 'fallback')).toEqual({
      field: null,
      message: 'fallback',
      isOrderGone: false,
    });
  });
});
