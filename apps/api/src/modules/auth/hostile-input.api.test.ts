import { endpoints, type SignableFields } from '@xcad/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createAuthTestApp, freshClient, type AuthTestApp } from './auth.testing';

// Issue 3 "no error path answers 500": every sign-in call, correctly signed, with fields of the
// wrong type, shape or size. Each must answer a readable refusal: a contract error or 10020 with
// the field named, never a crash or a stack trace.

const SIGN_IN_PATHS = Object.values(endpoints)
  .map((endpoint) => endpoint.path)
  .filter((path) => path !== endpoints.getutctime.path);

const HOSTILE_VALUES: ReadonlyArray<[string, SignableFields[string]]> = [
  ['an array', ['13800138000', '13800138001'] as unknown as SignableFields[string]],
  ['an object', { $gt: '' } as unknown as SignableFields[string]],
  ['a number', 13800138000],
  ['a boolean', true],
  ['50 kB of text', 'x'.repeat(50_000)],
  ['control characters', '\u0000\u0007\u001b[31m'],
  ['markup', '<script>alert(1)</script>'],
  ['SQL', "' OR 1=1; DROP TABLE app_user; --"],
];

const FIELD_NAMES = ['account', 'smscode', 'imgcode', 'password', 'oldpassword', 'usertoken', 'nickname', 'mobile', 'logintag', 'verifytype', 'width', 'showvip', 'code', 'state'];

let t: AuthTestApp;

beforeAll(async () => {
  t = await createAuthTestApp();
});

afterAll(async () => {
  await t.close();
});

describe('hostile input on every sign-in call', () => {
  it.each(SIGN_IN_PATHS)('%s answers every malformed field without a server error', async (path) => {
    for (const [, value] of HOSTILE_VALUES) {
      const fields = Object.fromEntries(FIELD_NAMES.map((name) => [name, value]));
      const result = await call(t, path, fields, freshClient());
      expect(result.status, `${path} with ${JSON.stringify(value).slice(0, 40)}`).toBeLessThan(500);
      expect(typeof result.body['code']).toBe('number');
      expect(JSON.stringify(result.body)).not.toMatch(/at .+\.(ts|js):\d+|Error:/);
    }
  });
});
