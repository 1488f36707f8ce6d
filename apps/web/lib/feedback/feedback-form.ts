import {
  ApiClientError,
  COMPLAINT_CATEGORIES,
  FEEDBACK_CATEGORIES,
  FEEDBACK_ERRORS,
  IMAGE_SNIFF_BYTES,
  cleanText,
  sniffImageType,
  textLength,
  validateSubmissionField,
  type ImageType,
} from '@xcad/protocol';

// The feedback and complaint forms' rules in the browser (decision 0013). Every check runs the same
// protocol schema the API parses the request with, so a message shown on blur is the message the
// server would answer; the server's refusals are mapped back onto the field they name.

/** The three pages: /意见反馈.html and /jianyi.html send feedback, /complaint.html a complaint. */
export type FormVariant = 'feedback' | 'jianyi' | 'complaint';
export type FormKind = 'feedback' | 'complaint';

export type TextField = 'category' | 'product' | 'orderno' | 'content' | 'contactname' | 'contact';
export type FormField = TextField | 'screenshots';
export type FormValues = Record<TextField, string>;
export type FieldErrors = Partial<Record<FormField, string>>;

/** The text fields of each form, in page order (the first failing one gets the focus). */
export const TEXT_FIELDS: Readonly<Record<FormKind, readonly TextField[]>> = {
  feedback: ['category', 'product', 'content', 'contact'],
  complaint: ['category', 'orderno', 'content', 'contactname', 'contact'],
};

export const CATEGORIES: Readonly<Record<FormKind, readonly string[]>> = {
  feedback: FEEDBACK_CATEGORIES,
  complaint: COMPLAINT_CATEGORIES,
};

export function kindOf(variant: FormVariant): FormKind {
  return variant === 'complaint' ? 'complaint' : 'feedback';
}

/** An empty form; /jianyi.html starts on 功能建议 (suggestion). */
export function initialValues(variant: FormVariant): FormValues {
  return { category: variant === 'jianyi' ? 'suggestion' : '', product: '', orderno: '', content: '', contactname: '', contact: '' };
}

/** The message of `field` holding `value` ('' when valid), from the request schema's own rule. */
export function validateField(kind: FormKind, field: TextField, value: string): string {
  return validateSubmissionField(kind, field, value);
}

/** Every text field's message; fields without a problem are left out. */
export function validateForm(kind: FormKind, values: FormValues): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of TEXT_FIELDS[kind]) {
    const message = validateField(kind, field, values[field]);
    if (message !== '') errors[field] = message;
  }
  return errors;
}

/** The characters the content counter shows: as the server counts them, after cleaning. */
export function contentLength(content: string): number {
  return textLength(cleanText(content));
}

export interface Refusal {
  /** The form field the server named, when it named one of this form's. */
  readonly field: FormField | null;
  readonly message: string;
}

/** Where a failed submission's message belongs: under the field the answer names, else above the button. */
export function refusalOf(error: unknown, kind: FormKind, fallback: string): Refusal {
  if (!(error instanceof ApiClientError)) return { field: null, message: fallback };
  const named = error.details['field'];
  const fields: readonly FormField[] = [...TEXT_FIELDS[kind], 'screenshots'];
  const isFieldError = error.code === FEEDBACK_ERRORS.invalidField.codes[0] && typeof named === 'string';
  const field = isFieldError && (fields as readonly string[]).includes(named) ? (named as FormField) : null;
  return { field, message: error.message || fallback };
}

/** The image type a chosen file really is, from its first bytes (its name and declared type may lie). */
export async function imageTypeOf(file: Blob): Promise<ImageType | undefined> {
  const head = new Uint8Array(await file.slice(0, IMAGE_SNIFF_BYTES).arrayBuffer());
  return sniffImageType(head);
}

/** A file's bytes as standard base64 (no `data:` prefix), as the submit calls carry screenshots. */
export async function base64Of(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const chunks: string[] = [];
  // String.fromCharCode takes its arguments on the stack: feed it slices.
  for (let offset = 0; offset < bytes.length; offset += 0x8000) {
    chunks.push(String.fromCharCode(...bytes.subarray(offset, offset + 0x8000)));
  }
  return btoa(chunks.join(''));
}
