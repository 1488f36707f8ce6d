import { randomInt } from 'node:crypto';
import { DEV_SIGN_SECRET, SESSION_COOKIE, createApiClient, endpoints, productDevice, type ApiClient, type TUserInfo } from '@xcad/protocol';
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { expect, inject } from 'vitest';

/** Where the site keeps the signed-in user (apps/web/lib/auth/session-store.ts USER_STORAGE_KEY). */
const USER_STORAGE_KEY = 'xcad_user';

// Sign-in helpers of the browser tests: fresh phones and client addresses (the per-IP limits of
// decision 0010 are real, and every test comes from 127.0.0.1), the dev SMS and captcha outboxes,
// and a signed API client for setting up accounts without clicking through the UI.

/** A mainland mobile number no other test uses. */
export function uniquePhone(): string {
  return `13${randomInt(3, 10)}${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

/**
 * A client address of its own: the front server passes X-Forwarded-For from loopback clients on.
 * It is one of this machine's loopback addresses (127.0.0.0/8), so the per-address limits count it
 * apart while the development routes (sandbox cashier, dev WeChat and QQ pages) still see a
 * request made on this host (decision 0026).
 */
export function uniqueIp(): string {
  return `127.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(1, 255)}`;
}

/** Browser context options of a visitor with an address of their own. */
export function asVisitor(options: BrowserContextOptions): BrowserContextOptions {
  return { ...options, extraHTTPHeaders: { ...options.extraHTTPHeaders, 'x-forwarded-for': uniqueIp() } };
}

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(new URL(path, inject('baseUrl')));
  expect(response.status, `GET ${path}`).toBe(200);
  return (await response.json()) as T;
}

/** The newest SMS code sent to `phone` that differs from `previous` (waits for it to arrive). */
export async function smsCodeFor(phone: string, previous?: string): Promise<string> {
  let code = '';
  await expect
    .poll(async () => {
      const { messages } = await getJson<{ messages: Array<{ code: string }> }>(`/api/dev/sms-outbox?account=${phone}`);
      code = messages[0]?.code ?? '';
      return code !== '' && code !== previous;
    })
    .toBe(true);
  return code;
}

/** How many SMS codes `phone` has received. */
export async function smsCountFor(phone: string): Promise<number> {
  const { messages } = await getJson<{ messages: unknown[] }>(`/api/dev/sms-outbox?account=${phone}`);
  return messages.length;
}

/** The text of the newest image captcha shown to `deviceid` (dev outbox, console SMS provider only). */
export async function captchaTextFor(deviceid: string): Promise<string> {
  const { captchas } = await getJson<{ captchas: Array<{ text: string }> }>(
    `/api/dev/captcha-outbox?deviceid=${encodeURIComponent(deviceid)}`,
  );
  expect(captchas.length, `a captcha for ${deviceid}`).toBeGreaterThan(0);
  return captchas[0]!.text;
}

/** The device id the page signs its calls with (spec §3 `_g_uuid`). */
export function deviceIdOf(page: Page): Promise<string> {
  return page.evaluate(() => window.localStorage.getItem('_g_uuid') ?? '');
}

/** A signed client of the product API as a device at `ip` (spec §7). */
export function apiAs(ip: string = uniqueIp(), deviceid = `e2e-${randomInt(1e9)}`): { client: ApiClient; deviceid: string } {
  const baseUrl = inject('baseUrl');
  const client = createApiClient({
    baseUrl,
    secret: DEV_SIGN_SECRET,
    domain: new URL(baseUrl).host,
    device: () => productDevice(deviceid, { deviceos: 'Linux' }),
    fetch: (input, init) => fetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-forwarded-for': ip } }),
  });
  return { client, deviceid };
}

/** Registers `phone` with `password` through the API (captcha and SMS code read from the dev outboxes). */
export async function registerThroughApi(phone: string, password: string): Promise<void> {
  const { client, deviceid } = apiAs();
  await client.call(endpoints.imgverify, {});
  const imgcode = await captchaTextFor(deviceid);
  await client.call(endpoints.smsverify, { account: phone, verifytype: 'register', imgcode });
  const smscode = await smsCodeFor(phone);
  await client.call(endpoints.safregister, { account: phone, smscode, password });
}

/** Signs in with a password through the API. */
export async function loginThroughApi(account: string, password: string): Promise<TUserInfo> {
  const { client } = apiAs();
  const answer = await client.call(endpoints.login, { account, password, showvip: true });
  return answer.userinfo;
}

/**
 * Signs a browser context in as `account` without clicking through the login modal: the session
 * cookie the API would set and the `xcad_user` record the site keeps, exactly as after a login.
 */
export async function signInContext(context: BrowserContext, account: string, password: string): Promise<TUserInfo> {
  const user = await loginThroughApi(account, password);
  await context.addCookies([{ name: SESSION_COOKIE, value: user.usertoken, url: inject('baseUrl'), httpOnly: true, sameSite: 'Lax' }]);
  await context.addInitScript(
    ([key, value]) => {
      if (window.localStorage.getItem(key) === null) window.localStorage.setItem(key, value);
    },
    [USER_STORAGE_KEY, JSON.stringify(user)] as const,
  );
  return user;
}
