import { z } from 'zod';
import { ZSignedIn } from '../auth';
import { defineEndpoint, type Endpoint } from '../endpoint';
import { successOf } from '../envelope';
import type { CodeGroup } from '../errors';
import { EMAIL_PATTERN, PHONE_PATTERN, VALIDATION_MESSAGES } from '../validation';

// Decision 0013: the feedback (/意见反馈.html, /jianyi.html) and complaint (/complaint.html) forms. One set
// of rules and messages for the web form and the API: the form checks with these schemas on blur
// and on submit, the server parses the signed body with the very same ones, so a refusal names
// the same field with the same words either side. The spec (§2) only names the pages; every rule
// and message below is ours unless it says otherwise.

export const FEEDBACK_LIMITS = {
  feedbackContentMin: 10,
  feedbackContentMax: 1000,
  complaintContentMin: 20,
  complaintContentMax: 1000,
  contactMax: 64,
  contactNameMax: 20,
  /**
   * Screenshots: PNG, JPEG or WebP (checked by their first bytes, not by a declared type), at
   * most 3, each at most 3 MiB and 5 MiB together. They travel base64-encoded inside the signed
   * JSON body, so the body of these two calls may reach 4/3 of 5 MiB (see `bodyLimitBytes`).
   */
  screenshotMaxCount: 3,
  screenshotMaxBytes: 3 * 1024 * 1024,
  screenshotsTotalMaxBytes: 5 * 1024 * 1024,
  /** Submissions (feedback and complaints together) one client address may make in an hour. */
  submissionsPerIpPerHour: 5,
  /** The same text of the same kind is refused for this long after it was accepted. */
  duplicateWindowSeconds: 600,
} as const;

/** Largest body of the two submit calls: the screenshots in base64 plus room for the text fields. */
export const FEEDBACK_BODY_LIMIT_BYTES = Math.ceil((FEEDBACK_LIMITS.screenshotsTotalMaxBytes * 4) / 3) + 256 * 1024;

/** 意见反馈 categories, as ids on the wire; the web shows them through its messages. */
export const FEEDBACK_CATEGORIES = ['software', 'suggestion', 'conversion', 'payment', 'website', 'other'] as const;
export type TFeedbackCategory = (typeof FEEDBACK_CATEGORIES)[number];

/** The products a feedback is about: editor, converter, viewer, toolbox, mobile app, online tools, this site. */
export const FEEDBACK_PRODUCTS = ['editor', 'converter', 'viewer', 'toolbox', 'mobile', 'online', 'website'] as const;
export type TFeedbackProduct = (typeof FEEDBACK_PRODUCTS)[number];

/** 在线投诉 types: service attitude, refunds and charges, software fault, false advertising, other. */
export const COMPLAINT_CATEGORIES = ['service', 'billing', 'malfunction', 'advertising', 'other'] as const;
export type TComplaintCategory = (typeof COMPLAINT_CATEGORIES)[number];

export const FEEDBACK_KINDS = ['feedback', 'complaint'] as const;
export type TFeedbackKind = (typeof FEEDBACK_KINDS)[number];

export type TContactType = 'mobile' | 'email' | 'qq';

// wording ours throughout: the spec shows no text of these forms.
export const FEEDBACK_MESSAGES = {
  categoryRequired: '请选择反馈类型',
  productRequired: '请选择相关产品',
  contentEmpty: '请填写反馈内容',
  contentTooShort: `反馈内容至少${FEEDBACK_LIMITS.feedbackContentMin}个字，请尽量描述清楚`,
  contentTooLong: `反馈内容不能超过${FEEDBACK_LIMITS.feedbackContentMax}个字`,
  contactEmpty: '请填写联系方式（手机号、邮箱或QQ号）',
  contactInvalid: '请填写正确的手机号、邮箱或QQ号（QQ号为5-11位数字）',
  /** spec §5: a number shaped like a mainland mobile must pass the phone rule, with its message. */
  phone: VALIDATION_MESSAGES.phone,
  email: '请填写正确的邮箱地址',
  complaintCategoryRequired: '请选择投诉类型',
  complaintContentEmpty: '请填写投诉内容',
  complaintContentTooShort: `投诉内容至少${FEEDBACK_LIMITS.complaintContentMin}个字，请写明问题经过和您的诉求`,
  complaintContentTooLong: `投诉内容不能超过${FEEDBACK_LIMITS.complaintContentMax}个字`,
  complaintContactEmpty: '请填写联系电话或邮箱',
  complaintContactInvalid: '请填写正确的手机号或邮箱',
  contactNameTooLong: `联系人不能超过${FEEDBACK_LIMITS.contactNameMax}个字`,
  contactNameInvalid: '联系人包含不支持的字符',
  orderNo: '订单号格式不正确（8-32位字母、数字或短横线）',
  screenshotType: '截图仅支持PNG、JPG或WebP格式的图片',
  screenshotTooLarge: `单张截图不能超过${FEEDBACK_LIMITS.screenshotMaxBytes / 1024 / 1024}MB`,
  screenshotsTooMany: `最多上传${FEEDBACK_LIMITS.screenshotMaxCount}张截图`,
  screenshotsTooLarge: `截图总大小不能超过${FEEDBACK_LIMITS.screenshotsTotalMaxBytes / 1024 / 1024}MB`,
  pagePath: '页面地址无效',
} as const;

/** Refusals of the submit calls beside a failed field rule (codes ours, in a range the spec leaves free). */
export const FEEDBACK_ERRORS = {
  /** A field broke its rule; `field` names it and the message is the rule's own (decision 0010's 10020). */
  invalidField: { codes: [10020], message: FEEDBACK_MESSAGES.contentEmpty },
  /** More than `submissionsPerIpPerHour` from one address; the answer carries `retryafter` seconds. */
  tooFrequent: { codes: [16001], message: `提交过于频繁，每小时最多提交${FEEDBACK_LIMITS.submissionsPerIpPerHour}次，请稍后再试` },
  /** The same text was accepted within `duplicateWindowSeconds`. */
  duplicate: { codes: [16002], message: '相同内容已经提交过了，请勿在10分钟内重复提交' },
} as const satisfies Record<string, CodeGroup>;

/** Ticket numbers: FK (反馈) or TS (投诉), the Beijing date YYYYMMDD, then 6 random digits. */
export const TICKET_PREFIX: Record<TFeedbackKind, string> = { feedback: 'FK', complaint: 'TS' };
export const TICKET_PATTERN = /^(?:FK|TS)\d{14}$/;

// ---------------------------------------------------------------------------------------------
// Text rules

/** Characters as a person counts them (code points), so an emoji or a CJK character is one. */
export function textLength(text: string): number {
  return Array.from(text).length;
}

// Control characters other than tab and line feed; PostgreSQL refuses NUL outright.
// eslint-disable-next-line no-control-regex -- the point is to match control characters
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B-\u001F\u007F]/g;

/** The stored form of a free text: line ends unified, control characters dropped, trimmed. */
export function cleanText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(CONTROL_CHARACTERS, '').trim();
}

function contentSchema(min: number, max: number, messages: { empty: string; short: string; long: string }) {
  return z
    .string({ error: messages.empty })
    .transform(cleanText)
    .pipe(
      z
        .string()
        .min(1, { error: messages.empty, abort: true })
        .refine((text) => textLength(text) >= min, { error: messages.short, abort: true })
        .refine((text) => textLength(text) <= max, { error: messages.long }),
    );
}

// ---------------------------------------------------------------------------------------------
// Contact rules

const MOBILE_SHAPED = /^(?:\d{1,3}-)?1\d{10}$/;
const QQ_PATTERN = /^[1-9]\d{4,10}$/;

/**
 * A contact as typed, made comparable: trimmed; a number written with spaces or a leading '+'
 * ('+86-138 0013 8000') loses them, so it can meet spec §5's phone rule.
 */
export function normalizeContact(text: string): string {
  const trimmed = text.trim();
  if (!/^\+?[\d\s-]+$/.test(trimmed)) return trimmed;
  return trimmed.replace(/\s+/g, '').replace(/^\+/, '');
}

/**
 * What a (normalized) contact is. Eleven digits starting with 1 read as a mainland mobile, which
 * then has to pass spec §5's phone rule; other numbers of 5-11 digits are QQ numbers.
 */
export function contactTypeOf(contact: string): TContactType | undefined {
  if (contact.includes('@')) return isContactEmail(contact) ? 'email' : undefined;
  if (MOBILE_SHAPED.test(contact)) return PHONE_PATTERN.test(contact) ? 'mobile' : undefined;
  return QQ_PATTERN.test(contact) ? 'qq' : undefined;
}

function isContactEmail(contact: string): boolean {
  return textLength(contact) <= FEEDBACK_LIMITS.contactMax && EMAIL_PATTERN.test(contact);
}

/** The message for a contact of the feedback form ('' when valid): a mobile, an e-mail or a QQ number. */
export function validateFeedbackContact(text: string): string {
  const contact = normalizeContact(text);
  if (contact === '') return FEEDBACK_MESSAGES.contactEmpty;
  if (contactTypeOf(contact) !== undefined) return '';
  if (contact.includes('@')) return FEEDBACK_MESSAGES.email;
  if (MOBILE_SHAPED.test(contact)) return FEEDBACK_MESSAGES.phone;
  return FEEDBACK_MESSAGES.contactInvalid;
}

/** The message for a contact of the complaint form ('' when valid): a mobile or an e-mail. */
export function validateComplaintContact(text: string): string {
  const contact = normalizeContact(text);
  if (contact === '') return FEEDBACK_MESSAGES.complaintContactEmpty;
  const type = contactTypeOf(contact);
  if (type === 'mobile' || type === 'email') return '';
  if (contact.includes('@')) return FEEDBACK_MESSAGES.email;
  if (MOBILE_SHAPED.test(contact)) return FEEDBACK_MESSAGES.phone;
  return FEEDBACK_MESSAGES.complaintContactInvalid;
}

function contactSchema(validate: (text: string) => string, emptyMessage: string) {
  return z
    .string({ error: emptyMessage })
    .transform(normalizeContact)
    .superRefine((contact, context) => {
      const message = validate(contact);
      if (message !== '') context.addIssue({ code: 'custom', message });
    });
}

// ---------------------------------------------------------------------------------------------
// Screenshots

export interface ImageType {
  readonly ext: 'png' | 'jpg' | 'webp';
  readonly mime: 'image/png' | 'image/jpeg' | 'image/webp';
}

/** Bytes needed to tell the accepted image types apart (WebP's 'WEBP' ends at byte 12). */
export const IMAGE_SNIFF_BYTES = 12;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: ArrayLike<number>, signature: readonly number[], offset = 0): boolean {
  return signature.every((byte, index) => bytes[offset + index] === byte);
}

/** The image type the file's first bytes declare, whatever its name or declared type says. */
export function sniffImageType(bytes: ArrayLike<number>): ImageType | undefined {
  if (startsWith(bytes, PNG_SIGNATURE)) return { ext: 'png', mime: 'image/png' };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { ext: 'jpg', mime: 'image/jpeg' };
  // RIFF <size> WEBP
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8))
    return { ext: 'webp', mime: 'image/webp' };
  return undefined;
}

const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The first `count` bytes of standard base64 text (decoded here: browsers and Node alike). */
export function base64Prefix(text: string, count: number): number[] {
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of text) {
    if (bytes.length >= count) break;
    const value = BASE64_ALPHABET.indexOf(char);
    if (value < 0) break;
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return bytes;
}

/** Bytes that base64 text of valid shape decodes to. */
export function base64DecodedSize(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return (text.length / 4) * 3 - padding;
}

const MAX_SCREENSHOT_BASE64 = Math.ceil(FEEDBACK_LIMITS.screenshotMaxBytes / 3) * 4;

/** One screenshot: the file's bytes in standard base64 (no `data:` prefix). */
export const ZScreenshot = z
  .string({ error: FEEDBACK_MESSAGES.screenshotType })
  // Checked before the pattern, so an oversized string is not scanned at all.
  .max(MAX_SCREENSHOT_BASE64, { error: FEEDBACK_MESSAGES.screenshotTooLarge, abort: true })
  .min(1, { error: FEEDBACK_MESSAGES.screenshotType, abort: true })
  .regex(BASE64_PATTERN, { error: FEEDBACK_MESSAGES.screenshotType, abort: true })
  .refine((data) => sniffImageType(base64Prefix(data, IMAGE_SNIFF_BYTES)) !== undefined, {
    error: FEEDBACK_MESSAGES.screenshotType,
    abort: true,
  })
  .refine((data) => base64DecodedSize(data) <= FEEDBACK_LIMITS.screenshotMaxBytes, { error: FEEDBACK_MESSAGES.screenshotTooLarge });

/** The screenshots field: optional, at most 3, 5 MiB together. */
export const ZScreenshots = z
  .array(ZScreenshot, { error: FEEDBACK_MESSAGES.screenshotType })
  .max(FEEDBACK_LIMITS.screenshotMaxCount, { error: FEEDBACK_MESSAGES.screenshotsTooMany, abort: true })
  .refine((items) => items.reduce((sum, data) => sum + base64DecodedSize(data), 0) <= FEEDBACK_LIMITS.screenshotsTotalMaxBytes, {
    error: FEEDBACK_MESSAGES.screenshotsTooLarge,
  })
  .default([]);

/** The message for screenshots about to be chosen in the form ('' when they may be added). */
export function validateScreenshotFiles(files: readonly { readonly size: number; readonly type: ImageType | undefined }[]): string {
  if (files.length > FEEDBACK_LIMITS.screenshotMaxCount) return FEEDBACK_MESSAGES.screenshotsTooMany;
  if (files.some((file) => file.type === undefined)) return FEEDBACK_MESSAGES.screenshotType;
  if (files.some((file) => file.size > FEEDBACK_LIMITS.screenshotMaxBytes)) return FEEDBACK_MESSAGES.screenshotTooLarge;
  const total = files.reduce((sum, file) => sum + file.size, 0);
  return total > FEEDBACK_LIMITS.screenshotsTotalMaxBytes ? FEEDBACK_MESSAGES.screenshotsTooLarge : '';
}

// ---------------------------------------------------------------------------------------------
// Requests

/** Empty text reads as 'not given' (forms send empty fields). */
function optionalText<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema.optional());
}

const ORDER_NO_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{6,30}[A-Za-z0-9]$/;

export const ZOrderNo = z
  .string({ error: FEEDBACK_MESSAGES.orderNo })
  .transform((text) => text.trim())
  .pipe(z.string().regex(ORDER_NO_PATTERN, { error: FEEDBACK_MESSAGES.orderNo }));

export const ZContactName = z
  .string({ error: FEEDBACK_MESSAGES.contactNameInvalid })
  .transform((text) => text.trim())
  .pipe(
    z
      .string()
      .refine((text) => textLength(text) <= FEEDBACK_LIMITS.contactNameMax, { error: FEEDBACK_MESSAGES.contactNameTooLong, abort: true })
      .refine((text) => !/[\p{Cc}<>]/u.test(text), { error: FEEDBACK_MESSAGES.contactNameInvalid }),
  );

/** The page the form was sent from (`location.pathname`, percent-encoded as browsers keep it). */
export const ZPagePath = z
  .string({ error: FEEDBACK_MESSAGES.pagePath })
  .regex(/^\/[\x21-\x7e]{0,299}$/, { error: FEEDBACK_MESSAGES.pagePath });

export const ZFeedbackContent = contentSchema(FEEDBACK_LIMITS.feedbackContentMin, FEEDBACK_LIMITS.feedbackContentMax, {
  empty: FEEDBACK_MESSAGES.contentEmpty,
  short: FEEDBACK_MESSAGES.contentTooShort,
  long: FEEDBACK_MESSAGES.contentTooLong,
});

export const ZComplaintContent = contentSchema(FEEDBACK_LIMITS.complaintContentMin, FEEDBACK_LIMITS.complaintContentMax, {
  empty: FEEDBACK_MESSAGES.complaintContentEmpty,
  short: FEEDBACK_MESSAGES.complaintContentTooShort,
  long: FEEDBACK_MESSAGES.complaintContentTooLong,
});

export const ZFeedbackContact = contactSchema(validateFeedbackContact, FEEDBACK_MESSAGES.contactEmpty);
export const ZComplaintContact = contactSchema(validateComplaintContact, FEEDBACK_MESSAGES.complaintContactEmpty);

/** Shared by both calls: an optional session (links the submission to the user) and the page. */
const ZSubmissionCommon = ZSignedIn.pick({ usertoken: true }).extend({
  pagepath: optionalText(ZPagePath),
  screenshots: ZScreenshots,
});

export const ZFeedbackSubmitRequest = ZSubmissionCommon.extend({
  category: z.enum(FEEDBACK_CATEGORIES, { error: FEEDBACK_MESSAGES.categoryRequired }),
  product: z.enum(FEEDBACK_PRODUCTS, { error: FEEDBACK_MESSAGES.productRequired }),
  content: ZFeedbackContent,
  contact: ZFeedbackContact,
});
export type TFeedbackSubmitRequest = z.input<typeof ZFeedbackSubmitRequest>;
export type TFeedbackSubmission = z.output<typeof ZFeedbackSubmitRequest>;

export const ZComplaintSubmitRequest = ZSubmissionCommon.extend({
  category: z.enum(COMPLAINT_CATEGORIES, { error: FEEDBACK_MESSAGES.complaintCategoryRequired }),
  orderno: optionalText(ZOrderNo),
  content: ZComplaintContent,
  contactname: optionalText(ZContactName),
  contact: ZComplaintContact,
});
export type TComplaintSubmitRequest = z.input<typeof ZComplaintSubmitRequest>;
export type TComplaintSubmission = z.output<typeof ZComplaintSubmitRequest>;

/** Both calls answer the ticket number the user can quote to customer service. */
export const ZSubmitResponse = successOf({ ticketno: z.string().regex(TICKET_PATTERN) });
export type TSubmitResponse = z.infer<typeof ZSubmitResponse>;

const REQUEST_SCHEMAS = { feedback: ZFeedbackSubmitRequest, complaint: ZComplaintSubmitRequest } as const;

/** The message of one field of a `kind` request holding `value` ('' when valid): what the form shows on blur. */
export function validateSubmissionField(kind: TFeedbackKind, field: string, value: unknown): string {
  const shape: Record<string, z.ZodType | undefined> = REQUEST_SCHEMAS[kind].shape;
  const result = shape[field]?.safeParse(value);
  if (result === undefined || result.success) return '';
  return result.error.issues[0]?.message ?? '';
}

/** Field names of the two forms, in the order they appear (the first failing one takes the focus). */
export const FEEDBACK_FIELDS = ['category', 'product', 'content', 'contact', 'screenshots'] as const;
export const COMPLAINT_FIELDS = ['category', 'orderno', 'content', 'contactname', 'contact', 'screenshots'] as const;
export type TFeedbackField = (typeof FEEDBACK_FIELDS)[number];
export type TComplaintField = (typeof COMPLAINT_FIELDS)[number];

/** The first message per field of a failed parse, keyed by the field (the path's first element). */
export function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issue.message;
  }
  return errors;
}

export const feedbackEndpoints = {
  feedbacksubmit: defineEndpoint({ path: '/api/v4/feedbacksubmit', request: ZFeedbackSubmitRequest, response: ZSubmitResponse }),
  complaintsubmit: defineEndpoint({ path: '/api/v4/complaintsubmit', request: ZComplaintSubmitRequest, response: ZSubmitResponse }),
} satisfies Record<string, Endpoint>;
