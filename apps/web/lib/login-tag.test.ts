import { describe, expect, it } from 'vitest';
import { takeLoginTag } from './login-tag';

describe('takeLoginTag (spec §2: /weixin-login-callback)', () => {
  it('reads the logintag and gives the URL without it, other parameters kept', () => {
    expect(takeLoginTag('http://site.test/weixin-login-callback?logintag=abc123&from=qr#x')).toEqual({
      loginTag: 'abc123',
      cleanPath: '/weixin-login-callback?from=qr#x',
    });
    expect(takeLoginTag('http://site.test/en/weixin-login-callback?logintag=abc')).toEqual({
      loginTag: 'abc',
      cleanPath: '/en/weixin-login-callback',
    });
  });

  it('reports a missing or empty tag', () => {
    expect(takeLoginTag('http://site.test/weixin-login-callback').loginTag).toBeNull();
    expect(takeLoginTag('http://site.test/weixin-login-callback?logintag=').loginTag).toBeNull();
  });
});
