import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { VALIDATION_MESSAGES } from '../validation';
import {
  FEEDBACK_BODY_LIMIT_BYTES,
  FEEDBACK_LIMITS,
  FEEDBACK_MESSAGES,
  TICKET_PATTERN,
  ZComplaintSubmitRequest,
  ZFeedbackSubmitRequest,
  ZScreenshot,
  ZScreenshots,
  base64DecodedSize,
  base64Prefix,
  cleanText,
  contactTypeOf,
  fieldErrorsOf,
  normalizeContact,
  sniffImageType,
  textLength,
  validateComplaintContact,
  validateFeedbackContact,
  validateScreenshotFiles,
} from './feedback';

// The rules the feedback and complaint forms and the API share (decision 0013).

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13];
const JPEG_HEAD = [0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1];
const WEBP_HEAD = [0x52, 0x49, 0x46, 0x46, 0x24, 0, 0, 0, 0x57, 0x45, 0x42, 0x50];

function base64(bytes: readonly number[]): string {
  return Buffer.from(bytes).toString('base64');
}

/** Base64 of `size` bytes that start like a PNG. */
function pngOfSize(size: number): string {
  return Buffer.concat([Buffer.from(PNG_HEAD), Buffer.alloc(size - PNG_HEAD.length)]).toString('base64');
}

function messagesOf(schema: z.ZodType, value: unknown): Record<string, string> {
  const result = schema.safeParse(value);
  return result.success ? {} : fieldErrorsOf(result.error);
}

const GOOD_FEEDBACK = {
  category: 'conversion',
  product: 'converter',
  content: 'PDF转DWG后文字变成了多段线，无法编辑',
  contact: '13800138000',
};
const GOOD_COMPLAINT = {
  category: 'billing',
  content: '开通月度会员时支付成功但会员没有到账，已经等了两天，请核实处理',
  contact: 'me@example.com',
};

describe('text', () => {
  it('counts code points, so CJK characters and emoji count one each', () => {
    expect(textLength('迅捷CAD')).toBe(5);
    expect(textLength('😀😀')).toBe(2);
  });

  it('cleans text: unified line ends, control characters dropped, trimmed; tabs and new lines kept', () => {
    expect(cleanText('  第一行\r\n第二行\r第三行\u0000\u0007\t缩进 \n')).toBe('第一行\n第二行\n第三行\t缩进');
  });
});

describe('contacts', () => {
  it('reads mobiles, e-mails and QQ numbers', () => {
    expect(contactTypeOf('13800138000')).toBe('mobile');
    expect(contactTypeOf('86-13800138000')).toBe('mobile');
    expect(contactTypeOf('a.b@example.com')).toBe('email');
    expect(contactTypeOf('10086')).toBe('qq');
    expect(contactTypeOf('12345678901')).toBeUndefined();
    expect(contactTypeOf('1234')).toBeUndefined();
    expect(contactTypeOf('012345')).toBeUndefined();
  });

  it('normalizes spaced numbers and a leading plus, leaves other text alone but trimmed', () => {
    expect(normalizeContact(' 138 0013 8000 ')).toBe('13800138000');
    expect(normalizeContact('+86-138 0013 8000')).toBe('86-13800138000');
    expect(normalizeContact(' Me@Example.com ')).toBe('Me@Example.com');
  });

  it('says which rule a feedback contact broke: empty, a mobile (spec §5 message), an e-mail, or none of them', () => {
    expect(validateFeedbackContact('')).toBe(FEEDBACK_MESSAGES.contactEmpty);
    expect(validateFeedbackContact('   ')).toBe(FEEDBACK_MESSAGES.contactEmpty);
    expect(validateFeedbackContact('12012345678')).toBe(VALIDATION_MESSAGES.phone);
    expect(validateFeedbackContact('我@qq')).toBe(FEEDBACK_MESSAGES.email);
    expect(validateFeedbackContact('abc')).toBe(FEEDBACK_MESSAGES.contactInvalid);
    expect(validateFeedbackContact('1234')).toBe(FEEDBACK_MESSAGES.contactInvalid);
    expect(validateFeedbackContact(`${'a'.repeat(60)}@qq.com`)).toBe(FEEDBACK_MESSAGES.email);
    for (const good of ['13800138000', '139 1234 5678', 'me@example.com', '800185621', '12345'])
      expect(validateFeedbackContact(good)).toBe('');
  });

  it('takes only a mobile or an e-mail for a complaint', () => {
    expect(validateComplaintContact('')).toBe(FEEDBACK_MESSAGES.complaintContactEmpty);
    expect(validateComplaintContact('800185621')).toBe(FEEDBACK_MESSAGES.complaintContactInvalid);
    expect(validateComplaintContact('12012345678')).toBe(VALIDATION_MESSAGES.phone);
    expect(validateComplaintContact('a@b')).toBe(FEEDBACK_MESSAGES.email);
    expect(validateComplaintContact('13800138000')).toBe('');
    expect(validateComplaintContact('me@example.com')).toBe('');
  });
});

describe('screenshots', () => {
  it('tells PNG, JPEG and WebP by their first bytes and nothing else', () => {
    expect(sniffImageType(PNG_HEAD)).toEqual({ ext: 'png', mime: 'image/png' });
    expect(sniffImageType(JPEG_HEAD)).toEqual({ ext: 'jpg', mime: 'image/jpeg' });
    expect(sniffImageType(WEBP_HEAD)).toEqual({ ext: 'webp', mime: 'image/webp' });
    expect(sniffImageType([...Buffer.from('GIF89a')])).toBeUndefined();
    expect(sniffImageType([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x41, 0x56, 0x45])).toBeUndefined(); // RIFF WAVE
    expect(sniffImageType([...Buffer.from('%PDF-1.7')])).toBeUndefined();
    expect(sniffImageType([])).toBeUndefined();
  });

  it('decodes the start of base64 text as Node does, and knows the decoded size', () => {
    const bytes = Array.from({ length: 40 }, (_, index) => (index * 37) % 256);
    for (const length of [1, 2, 3, 10, 11, 12, 40]) {
      const text = base64(bytes.slice(0, length));
      expect(base64Prefix(text, 12)).toEqual(bytes.slice(0, Math.min(12, length)));
      expect(base64DecodedSize(text)).toBe(length);
    }
  });

  it('accepts an image and refuses text, malformed base64 and a data URL with the type message', () => {
    expect(ZScreenshot.safeParse(base64([...PNG_HEAD, 1, 2, 3])).success).toBe(true);
    for (const bad of ['', base64([...Buffer.from('这是一个文本文件')]), 'iVBORw0KGgo', `data:image/png;base64,${base64(PNG_HEAD)}`, 42]) {
      expect(messagesOf(ZScreenshot, bad), String(bad)).toEqual({ '': FEEDBACK_MESSAGES.screenshotType });
    }
  });

  it('refuses one over 3 MB, a fourth, and more than 5 MB together', () => {
    const over = pngOfSize(FEEDBACK_LIMITS.screenshotMaxBytes + 1);
    expect(messagesOf(ZScreenshot, over)).toEqual({ '': FEEDBACK_MESSAGES.screenshotTooLarge });
    const small = base64(PNG_HEAD);
    expect(messagesOf(ZScreenshots, [small, small, small, small])).toEqual({ '': FEEDBACK_MESSAGES.screenshotsTooMany });
    const large = pngOfSize(2_700_000);
    expect(messagesOf(ZScreenshots, [large, large])).toEqual({ '': FEEDBACK_MESSAGES.screenshotsTooLarge });
    expect(ZScreenshots.parse(undefined)).toEqual([]);
  });

  it('leaves the body limit room for 5 MB of screenshots in base64', () => {
    expect(FEEDBACK_BODY_LIMIT_BYTES).toBeGreaterThan((FEEDBACK_LIMITS.screenshotsTotalMaxBytes * 4) / 3);
    expect(FEEDBACK_BODY_LIMIT_BYTES).toBeLessThan(8 * 1024 * 1024);
  });

  it('checks files in the form before they are read: count, type, size, total', () => {
    const png = { size: 1000, type: sniffImageType(PNG_HEAD) };
    expect(validateScreenshotFiles([png, png, png])).toBe('');
    expect(validateScreenshotFiles([png, png, png, png])).toBe(FEEDBACK_MESSAGES.screenshotsTooMany);
    expect(validateScreenshotFiles([png, { size: 10, type: undefined }])).toBe(FEEDBACK_MESSAGES.screenshotType);
    expect(validateScreenshotFiles([{ ...png, size: FEEDBACK_LIMITS.screenshotMaxBytes + 1 }])).toBe(FEEDBACK_MESSAGES.screenshotTooLarge);
    expect(
      validateScreenshotFiles([
        { ...png, size: 2_800_000 },
        { ...png, size: 2_800_000 },
      ]),
    ).toBe(FEEDBACK_MESSAGES.screenshotsTooLarge);
  });
});

describe('ZFeedbackSubmitRequest', () => {
  it('names every broken field with its message at once', () => {
    expect(messagesOf(ZFeedbackSubmitRequest, { content: '太卡了', contact: 'abc' })).toEqual({
      category: FEEDBACK_MESSAGES.categoryRequired,
      product: FEEDBACK_MESSAGES.productRequired,
      content: FEEDBACK_MESSAGES.contentTooShort,
      contact: FEEDBACK_MESSAGES.contactInvalid,
    });
    expect(messagesOf(ZFeedbackSubmitRequest, { ...GOOD_FEEDBACK, content: ' \n ' })).toEqual({ content: FEEDBACK_MESSAGES.contentEmpty });
    expect(messagesOf(ZFeedbackSubmitRequest, { ...GOOD_FEEDBACK, content: '字'.repeat(1001) })).toEqual({
      content: FEEDBACK_MESSAGES.contentTooLong,
    });
    expect(messagesOf(ZFeedbackSubmitRequest, { ...GOOD_FEEDBACK, content: '字'.repeat(1000) })).toEqual({});
    expect(messagesOf(ZFeedbackSubmitRequest, { ...GOOD_FEEDBACK, content: '字'.repeat(9) })).toEqual({
      content: FEEDBACK_MESSAGES.contentTooShort,
    });
  });

  it('reads the same after a second parse (the client sends what it parsed; the server parses it again)', () => {
    const once = ZFeedbackSubmitRequest.parse({
      ...GOOD_FEEDBACK,
      content: `  ${GOOD_FEEDBACK.content}\r\n`,
      contact: ' 138 0013 8000',
      pagepath: '',
      usertoken: 'abc',
    });
    expect(once).toEqual({ ...GOOD_FEEDBACK, usertoken: 'abc', screenshots: [] });
    expect(ZFeedbackSubmitRequest.parse(JSON.parse(JSON.stringify(once)))).toEqual(once);
  });

  it('drops fields it does not know', () => {
    expect(ZFeedbackSubmitRequest.parse({ ...GOOD_FEEDBACK, status: 'closed', ip: '1.2.3.4' })).not.toHaveProperty('status');
  });
});

describe('ZComplaintSubmitRequest', () => {
  it('takes an empty order number and contact name as absent, checks them when given', () => {
    expect(ZComplaintSubmitRequest.parse({ ...GOOD_COMPLAINT, orderno: ' ', contactname: '' })).toEqual({
      ...GOOD_COMPLAINT,
      screenshots: [],
    });
    expect(messagesOf(ZComplaintSubmitRequest, { ...GOOD_COMPLAINT, orderno: 'ab' })).toEqual({ orderno: FEEDBACK_MESSAGES.orderNo });
    expect(messagesOf(ZComplaintSubmitRequest, { ...GOOD_COMPLAINT, orderno: '-XJ2026112100' })).toEqual({
      orderno: FEEDBACK_MESSAGES.orderNo,
    });
    expect(ZComplaintSubmitRequest.parse({ ...GOOD_COMPLAINT, orderno: ' XJ-20261121-0001 ' }).orderno).toBe('XJ-20261121-0001');
    expect(messagesOf(ZComplaintSubmitRequest, { ...GOOD_COMPLAINT, contactname: '李'.repeat(21) })).toEqual({
      contactname: FEEDBACK_MESSAGES.contactNameTooLong,
    });
  });

  it('needs 20 characters of content and a type of its own list', () => {
    expect(messagesOf(ZComplaintSubmitRequest, { ...GOOD_COMPLAINT, content: '字'.repeat(19), category: 'software' })).toEqual({
      content: FEEDBACK_MESSAGES.complaintContentTooShort,
      category: FEEDBACK_MESSAGES.complaintCategoryRequired,
    });
  });
});

describe('ticket numbers', () => {
  it('are FK or TS, eight digits of date and six more', () => {
    expect(TICKET_PATTERN.test('FK20261121012345')).toBe(true);
    expect(TICKET_PATTERN.test('TS20261121999999')).toBe(true);
    expect(TICKET_PATTERN.test('XX20261121012345')).toBe(false);
    expect(TICKET_PATTERN.test('FK2026112101234')).toBe(false);
  });
});
