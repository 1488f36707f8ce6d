import { ApiClientError, FEEDBACK_MESSAGES } from '@xcad/protocol';
import { describe, expect, it } from 'vitest';
import { base64Of, contentLength, imageTypeOf, initialValues, kindOf, refusalOf, validateField, validateForm } from './feedback-form';

describe('feedback form rules', () => {
  it('starts /jianyi.html on 功能建议 and the other forms on no category', () => {
    expect(initialValues('jianyi').category).toBe('suggestion');
    expect(initialValues('feedback').category).toBe('');
    expect(initialValues('complaint').category).toBe('');
    expect(kindOf('jianyi')).toBe('feedback');
    expect(kindOf('complaint')).toBe('complaint');
  });

  it('shows the server’s messages for an empty feedback form, and none for optional complaint fields', () => {
    expect(validateForm('feedback', initialValues('feedback'))).toEqual({
      category: FEEDBACK_MESSAGES.categoryRequired,
      product: FEEDBACK_MESSAGES.productRequired,
      content: FEEDBACK_MESSAGES.contentEmpty,
      contact: FEEDBACK_MESSAGES.contactEmpty,
    });
    expect(validateForm('complaint', initialValues('complaint'))).toEqual({
      category: FEEDBACK_MESSAGES.complaintCategoryRequired,
      content: FEEDBACK_MESSAGES.complaintContentEmpty,
      contact: FEEDBACK_MESSAGES.complaintContactEmpty,
    });
  });

  it('checks one field at a time, as on blur', () => {
    expect(validateField('feedback', 'content', '太卡')).toBe(FEEDBACK_MESSAGES.contentTooShort);
    expect(validateField('feedback', 'contact', '12012345678')).toBe('请您填写正确的11位手机号');
    expect(validateField('feedback', 'contact', '800185621')).toBe('');
    expect(validateField('complaint', 'contact', '800185621')).toBe(FEEDBACK_MESSAGES.complaintContactInvalid);
    expect(validateField('complaint', 'orderno', '')).toBe('');
    expect(validateField('complaint', 'orderno', 'A1')).toBe(FEEDBACK_MESSAGES.orderNo);
  });

  it('counts the content as the server does: trimmed, in characters', () => {
    expect(contentLength('  迅捷CAD😀 \n')).toBe(6);
  });

  it('puts a refusal under the field it names, other refusals above the button', () => {
    const field = new ApiClientError({ code: 10020, message: FEEDBACK_MESSAGES.screenshotType, details: { field: 'screenshots' } });
    expect(refusalOf(field, 'feedback', 'fallback')).toEqual({ field: 'screenshots', message: FEEDBACK_MESSAGES.screenshotType });
    const foreign = new ApiClientError({ code: 10020, message: '订单号格式不正确', details: { field: 'orderno' } });
    expect(refusalOf(foreign, 'feedback', 'fallback')).toEqual({ field: null, message: '订单号格式不正确' });
    const capped = new ApiClientError({ code: 16001, message: '提交过于频繁', details: { retryafter: 60 } });
    expect(refusalOf(capped, 'complaint', 'fallback')).toEqual({ field: null, message: '提交过于频繁' });
    expect(refusalOf(new TypeError('boom'), 'complaint', 'fallback')).toEqual({ field: null, message: 'fallback' });
  });
});

describe('screenshot files', () => {
  it('reads the real type from the first bytes, whatever the declared type', async () => {
    const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2])], { type: 'text/plain' });
    expect(await imageTypeOf(png)).toEqual({ ext: 'png', mime: 'image/png' });
    const text = new Blob(['not an image at all'], { type: 'image/png' });
    expect(await imageTypeOf(text)).toBeUndefined();
  });

  it('encodes files to the same base64 as Node, across its 32 KiB slices', async () => {
    const bytes = new Uint8Array(100_003).map((_, index) => (index * 31 + 7) % 256);
    expect(await base64Of(new Blob([bytes]))).toBe(Buffer.from(bytes).toString('base64'));
    expect(await base64Of(new Blob([]))).toBe('');
  });
});
