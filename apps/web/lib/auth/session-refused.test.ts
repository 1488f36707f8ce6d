import { describe, expect, it } from 'vitest';
import { ApiClientError } from '@xcad/protocol';
import { isSessionRefused } from './session-refused';

describe('isSessionRefused', () => {
  it('is true only for the API refusing the usertoken (10060), not for other refusals or network failures', () => {
    expect(isSessionRefused(new ApiClientError({ code: 10060, message: '登录已失效，请重新登录' }))).toBe(true);
    expect(isSessionRefused(new ApiClientError({ code: 12002, message: '原密码错误' }))).toBe(false);
    expect(isSessionRefused(ApiClientError.of('network'))).toBe(false);
    expect(isSessionRefused(new Error('10060'))).toBe(false);
  });
});
