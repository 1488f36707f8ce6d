// Shared set-up of the auth API tests: an app whose SMS outbox the test can read, fresh phones,
// devices and addresses (the rate limits are per phone, device and address, so every test gets
// its own), and calls that sign in the ways the clients do.
import { randomUUID } from 'node:crypto';
import { productDevice, signFields, VISITOR_COOKIE, type SignableFields, type TUserInfo } from '@xcad/protocol';
import pino from 'pino';
import { expect } from 'vitest';
import { createTestApp, signedCall, type TestApp, type TestAppOptions } from '../../test-app';
import { ConsoleSmsProvider } from '../sms/console.provider';

export interface AuthTestApp extends TestApp {
  outbox: ConsoleSmsProvider;
}

export async function createAuthTestApp(options: TestAppOptions = {}): Promise<AuthTestApp> {
  const outbox = new ConsoleSmsProvider({ logger: pino({ level: 'silent' }) });
  const t = await createTestApp({}, { ...options, smsProvider: options.smsProvider ?? outbox });
  return { ...t, outbox };
}

let sequence = 0;

/** A phone, device and address no other test of the file uses (each file has its own database). */
export function freshClient(): Caller & { phone: string } {
  sequence += 1;
  return {
    phone: `1390000${String(sequence).padStart(4, '0')}`,
    deviceid: `device-${randomUUID()}`,
    ip: `10.0.${(sequence >> 8) & 255}.${sequence & 255}`,
  };
}

export interface Caller {
  deviceid: string;
  ip: string;
  /** The visitor cookie (`name=value`) the API gave this client, which it sends back as a browser does. */
  visitorCookie?: string;
}

export type CallResult = Awaited<ReturnType<typeof signedCall>>;

/** The visitor cookie an answer set, as `name=value`. */
function visitorCookieOf(result: CallResult): string | undefined {
  const header = result.headers['set-cookie'];
  const lines = Array.isArray(header) ? header.map(String) : [String(header ?? '')];
  return lines.find((line) => line.startsWith(`${VISITOR_COOKIE}=`))?.split(';')[0];
}

/** A signed call from `caller`, which keeps the visitor cookie the answer gives (the other cookies, tests pass themselves). */
export async function call(
  t: TestApp,
  path: string,
  fields: SignableFields,
  caller: Caller,
  headers: Record<string, string> = {},
): Promise<CallResult> {
  const cookie = [caller.visitorCookie, headers['cookie']].filter((part) => part !== undefined).join('; ');
  const result = await signedCall(t, path, fields, {
    deviceid: caller.deviceid,
    ip: caller.ip,
    headers: { ...headers, ...(cookie === '' ? {} : { cookie }) },
  });
  const given = visitorCookieOf(result);
  if (given !== undefined) caller.visitorCookie = given;
  return result;
}

/** The common fields a client signs, for tests that post by hand (bad signature, replay). */
export function signedBody(t: TestApp, fields: SignableFields, deviceid = 'test-device'): SignableFields & { datasign: string } {
  return signFields(
    {
      ...productDevice(deviceid),
      timestamp: Math.floor(t.clock.now() / 1000),
      nonce: randomUUID(),
      ...fields,
    },
    t.env.PRODUCT_SIGN_SECRET,
  );
}

/** The latest code the console provider "sent" to `phone`. */
export function lastCode(t: AuthTestApp, phone: string): string {
  const code = t.outbox.messagesFor(phone)[0]?.code;
  if (code === undefined) throw new Error(`no SMS was sent to ${phone}`);
  return code;
}

/** A code that is not `code`. */
export function otherCode(code: string): string {
  return String((Number(code) + 1) % 10_000).padStart(4, '0');
}

export function expectAnswer(result: CallResult, expected: { code: number; message?: string } & Record<string, unknown>): void {
  expect(result.status).toBe(200);
  expect(result.body).toMatchObject(expected);
}

export function userInfoOf(result: CallResult): TUserInfo {
  expect(result.body).toMatchObject({ code: 10000 });
  return result.body['userinfo'] as TUserInfo;
}

/** Asks a code for `purpose` and answers it, failing the test unless it was sent. */
export async function requestCode(
  t: AuthTestApp,
  caller: Caller & { phone: string },
  verifytype: string,
  imgcode?: string,
): Promise<string> {
  const fields: SignableFields = { account: caller.phone, verifytype };
  if (imgcode !== undefined) fields['imgcode'] = imgcode;
  const sent = await call(t, '/api/v4/smsverify', fields, caller);
  expect(sent.body).toEqual({ code: 10000, message: '' });
  return lastCode(t, caller.phone);
}

/** Signs up (or in) by SMS: a user without a password; answers the userinfo and the call. */
export async function signInBySms(
  t: AuthTestApp,
  caller: Caller & { phone: string },
  extra: SignableFields = {},
): Promise<{ userinfo: TUserInfo; result: CallResult }> {
  const smscode = await requestCode(t, caller, 'quicklogin');
  const result = await call(t, '/api/v4/loginquick', { account: caller.phone, smscode, ...extra }, caller);
  return { userinfo: userInfoOf(result), result };
}

/** A phone user with a password (signed up by SMS, then setpwd); answers the sign-up's userinfo. */
export async function userWithPassword(t: AuthTestApp, caller: Caller & { phone: string }, password: string): Promise<TUserInfo> {
  const { userinfo } = await signInBySms(t, caller);
  const set = await call(t, '/api/v4/setpwd', { account: caller.phone, usertoken: userinfo.usertoken, password }, caller);
  expect(set.body).toEqual({ code: 10000, message: '' });
  return userinfo;
}

export async function disableUser(t: TestApp, uid: string): Promise<void> {
  await t.database.db.updateTable('app_user').set({ status: 'disabled' }).where('id', '=', Number(uid)).execute();
}

/** The session cookie an answer set, as `name=value` plus its attributes. */
export function setCookieOf(result: CallResult): string {
  const header = result.headers['set-cookie'];
  const value = Array.isArray(header) ? header.join('\n') : String(header ?? '');
  expect(value).toMatch(/^xcad_session=/);
  return value;
}
