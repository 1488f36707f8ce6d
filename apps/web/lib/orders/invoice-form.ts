import { ApiClientError, PAY_ERRORS, ZInvoiceApplyRequest } from '@xcad/protocol';
import type { TInvoiceApplication, TInvoiceTitleType } from '@xcad/protocol';

// The invoice application form's rules in the browser (decision 0018). Every check runs the request
// schema the API parses the application with, so the message shown on blur is the one the server
// would answer; the server's refusals are mapped back onto the field they name.

export type InvoiceField = 'orderno' | 'titletype' | 'title' | 'taxno' | 'email' | 'address' | 'phone' | 'bank' | 'bankaccount';

/** The fields in page order: the first failing one takes the focus. */
const INVOICE_FIELDS: readonly InvoiceField[] = [
  'orderno',
  'titletype',
  'title',
  'taxno',
  'email',
  'address',
  'phone',
  'bank',
  'bankaccount',
];

/** The special VAT invoice's details, folded away under 'more' until wanted. */
export const VAT_FIELDS: readonly InvoiceField[] = ['address', 'phone', 'bank', 'bankaccount'];

/** Fields only a company title has: a person gives neither a tax id nor the VAT details. */
const COMPANY_ONLY_FIELDS: readonly InvoiceField[] = ['taxno', ...VAT_FIELDS];

export interface InvoiceFormValues {
  orderno: string;
  titletype: TInvoiceTitleType;
  title: string;
  taxno: string;
  email: string;
  address: string;
  phone: string;
  bank: string;
  bankaccount: string;
}

export type InvoiceFieldErrors = Partial<Record<InvoiceField, string>>;

export function initialInvoiceValues(orderno = ''): InvoiceFormValues {
  return { orderno, titletype: 'personal', title: '', taxno: '', email: '', address: '', phone: '', bank: '', bankaccount: '' };
}

/** Whether the form shows a field for the chosen title type. */
export function isFieldShown(field: InvoiceField, titletype: TInvoiceTitleType): boolean {
  return titletype === 'company' || !COMPANY_ONLY_FIELDS.includes(field);
}

/** What is sent: a person's application leaves the company-only fields empty, whatever was typed before switching. */
function submittedValuesOf(values: InvoiceFormValues): InvoiceFormValues {
  if (values.titletype === 'company') return values;
  return { ...values, taxno: '', address: '', phone: '', bank: '', bankaccount: '' };
}

/** Every shown field's first message; fields without a problem are left out. */
export function validateInvoiceForm(values: InvoiceFormValues): InvoiceFieldErrors {
  const result = ZInvoiceApplyRequest.safeParse(submittedValuesOf(values));
  if (result.success) return {};
  const errors: InvoiceFieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '') as InvoiceField;
    if (INVOICE_FIELDS.includes(field) && isFieldShown(field, values.titletype)) errors[field] ??= issue.message;
  }
  return errors;
}

/** One field's message ('' when valid), as on blur: the company rules depend on the title type. */
export function validateInvoiceField(values: InvoiceFormValues, field: InvoiceField): string {
  return validateInvoiceForm(values)[field] ?? '';
}

/** The fields of an invoiceapply request: the optional details only when given. */
export type InvoiceRequestFields = Omit<TInvoiceApplication, 'account' | 'usertoken' | 'address' | 'phone' | 'bank' | 'bankaccount'> & {
  address?: string;
  phone?: string;
  bank?: string;
  bankaccount?: string;
};

/** The application as the API takes it (trimmed, tax id upper-cased), or the errors that stop it. */
export function parseInvoiceForm(
  values: InvoiceFormValues,
): { readonly ok: true; readonly application: InvoiceRequestFields } | { readonly ok: false; readonly errors: InvoiceFieldErrors } {
  const result = ZInvoiceApplyRequest.safeParse(submittedValuesOf(values));
  if (!result.success) return { ok: false, errors: validateInvoiceForm(values) };
  const { orderno, titletype, title, taxno, email, address, phone, bank, bankaccount } = result.data;
  const details = Object.fromEntries(
    Object.entries({ address, phone, bank, bankaccount }).filter(([, value]) => value !== null),
  ) as Partial<Record<'address' | 'phone' | 'bank' | 'bankaccount', string>>;
  return { ok: true, application: { orderno, titletype, title, taxno, email, ...details } };
}

/** The first field in page order with a message. */
export function firstInvalidField(errors: InvoiceFieldErrors): InvoiceField | undefined {
  return INVOICE_FIELDS.find((field) => errors[field]);
}

/** 'More' must be open when one of its fields has something to say. */
export function hasVatError(errors: InvoiceFieldErrors): boolean {
  return VAT_FIELDS.some((field) => errors[field]);
}

export interface InvoiceRefusal {
  /** The form field the server named, when it named one of this form's. */
  readonly field: InvoiceField | null;
  readonly message: string;
  /** The order can no longer be invoiced (not paid, or applied for meanwhile): it leaves the choices. */
  readonly isOrderGone: boolean;
}

const codesOf = (group: { readonly codes: readonly number[] }) => group.codes;

/** Where a failed application's message belongs: under the field the answer names, else above the button. */
export function invoiceRefusalOf(error: unknown, fallback: string): InvoiceRefusal {
  if (!(error instanceof ApiClientError)) return { field: null, message: fallback, isOrderGone: false };
  const message = error.message || fallback;
  const isOrderGone = [
    ...codesOf(PAY_ERRORS.invoiceNotPaid),
    ...codesOf(PAY_ERRORS.invoiceExists),
    ...codesOf(PAY_ERRORS.orderUnknown),
  ].includes(error.code);
  const named = error.details['field'];
  const isFieldError = codesOf(PAY_ERRORS.invalidField).includes(error.code) && typeof named === 'string';
  const field = isFieldError && (INVOICE_FIELDS as readonly string[]).includes(named) ? (named as InvoiceField) : null;
  return { field, message, isOrderGone };
}
