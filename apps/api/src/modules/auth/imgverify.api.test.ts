import { AUTH_LIMITS } from '@xcad/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as CaptchaModule from './captcha';
import { call, createAuthTestApp, expectAnswer, freshClient, type AuthTestApp } from './auth.testing';

const captcha = vi.hoisted(() => ({ texts: [] as string[], lengths: [] as number[] }));
vi.mock('./captcha', async (importOriginal) => {
  const original = await importOriginal<typeof CaptchaModule>();
  return {
    ...original,
    randomCaptchaText: (length: number) => {
      captcha.lengths.push(length);
      return captcha.texts.shift() ?? original.randomCaptchaText(length);
    },
  };
});

let t: AuthTestApp;

beforeAll(async () => {
  t = await createAuthTestApp();
});

afterAll(async () => {
  await t.close();
});

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngOf(message: unknown): { width: number; height: number } {
  const match = /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(String(message));
  expect(match).not.toBeNull();
  const png = Buffer.from(match?.[1] ?? '', 'base64');
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('POST /api/v4/imgverify', () => {
  it('answers a 90x40 PNG of 4 characters by default (spec §9)', async () => {
    const result = await call(t, '/api/v4/imgverify', {}, freshClient());
    expect(result.status).toBe(200);
    expect(result.body['code']).toBe(10000);
    expect(pngOf(result.body['message'])).toEqual({ width: 90, height: 40 });
    expect(captcha.lengths.at(-1)).toBe(4);
  });

  it('draws the asked size, given as form strings too', async () => {
    const result = await call(t, '/api/v4/imgverify', { width: '120', height: 50, fontsize: '20', length: '4' }, freshClient());
    expect(pngOf(result.body['message'])).toEqual({ width: 120, height: 50 });
  });

  it.each([
    [{ width: 10 }, 'width'],
    [{ height: 500 }, 'height'],
    [{ fontsize: 'big' }, 'fontsize'],
    [{ length: 3 }, 'length'],
    [{ length: 5 }, 'length'],
  ])('refuses %j with 10020 on %s', async (fields, field) => {
    const result = await call(t, '/api/v4/imgverify', fields, freshClient());
    expectAnswer(result, { code: 10020, field });
    expect(String(result.body['message'])).not.toBe('');
  });

  it('keeps one captcha per device: a new image replaces the answer of the last', async () => {
    const client = freshClient();
    const other = freshClient();
    captcha.texts.push('AC3D', 'HK4M', 'PX7R');
    await call(t, '/api/v4/imgverify', {}, client);
    await call(t, '/api/v4/imgverify', {}, client);
    await call(t, '/api/v4/imgverify', {}, other);

    // The register send always checks the image code.
    const send = (imgcode: string, who = client) =>
      call(t, '/api/v4/smsverify', { account: who.phone, verifytype: 'register', imgcode }, who);
    expectAnswer(await send('AC3D'), { code: 10008 });
    await call(t, '/api/v4/imgverify', {}, client);
    captcha.texts.push('HK4M');
    await call(t, '/api/v4/imgverify', {}, client);
    expect((await send('hk4m')).body).toEqual({ code: 10000, message: '' });
    // Another device's image is its own.
    expect((await send('PX7R', other)).body).toEqual({ code: 10000, message: '' });
  });

  it('expires an image after captchaTtlSeconds', async () => {
    const client = freshClient();
    captcha.texts.push('TUVW');
    await call(t, '/api/v4/imgverify', {}, client);
    await t.clock.advance(AUTH_LIMITS.captchaTtlSeconds * 1000);
    expectAnswer(await call(t, '/api/v4/smsverify', { account: client.phone, verifytype: 'register', imgcode: 'TUVW' }, client), {
      code: 10008,
      message: '请填写正确的图形验证码',
    });
  });
});
