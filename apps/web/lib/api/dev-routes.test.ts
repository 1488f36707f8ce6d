import { afterEach, describe, expect, it, vi } from 'vitest';
import { postDevRoute } from './dev-routes';

afterEach(() => vi.unstubAllGlobals());

function answering(status: number, body: unknown) {
  const fetch = vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('postDevRoute', () => {
  it('posts JSON and answers the code, the message and the whole body', async () => {
    const fetch = answering(200, { code: 10000, message: 'ok', state: 'paid' });
    expect(await postDevRoute('/api/dev/pay/order', { orderno: 'XC1' })).toEqual({
      code: 10000,
      message: 'ok',
      body: { code: 10000, message: 'ok', state: 'paid' },
    });
    expect(fetch).toHaveBeenCalledWith('/api/dev/pay/order', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: '{"orderno":"XC1"}',
    });
  });

  it('answers null for a 404 (the development provider is not in use) and rejects an answer without a code', async () => {
    answering(404, { message: 'Not Found' });
    expect(await postDevRoute('/api/dev/wechat/scan', { logintag: 'x' })).toBeNull();
    answering(502, { error: 'Bad Gateway' });
    await expect(postDevRoute('/api/dev/wechat/scan', { logintag: 'x' })).rejects.toThrow('unexpected answer from /api/dev/wechat/scan');
  });

  it('gives an empty message when the route sent none', async () => {
    answering(200, { code: 15002 });
    expect(await postDevRoute('/api/dev/wechat/confirm', { logintag: 'x' })).toMatchObject({ code: 15002, message: '' });
  });
});
