import { PROTOCOL_ERRORS } from '@xcad/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthTestApp, freshClient, signedBody, type AuthTestApp } from './auth.testing';

// spec §7: every sign-in call is signed; a wrong datasign or a replayed body never reaches the
// handler.

const ENDPOINTS: ReadonlyArray<[string, Record<string, string>]> = [
  ['imgverify', {}],
  ['smsverify', { account: '13800138000', verifytype: 'quicklogin' }],
  ['safsmsverify', { account: '13800138001', verifytype: 'quicklogin' }],
  ['loginquick', { account: '13800138000', smscode: '1234' }],
  ['safloginquick', { account: '13800138000', smscode: '1234' }],
  ['login', { account: '13800138000', password: 'abc123' }],
  ['safregister', { account: '13800138000', smscode: '1234', password: 'abc123' }],
  ['safforgetpwd', { account: '13800138000', smscode: '1234', password: 'abc123' }],
  ['setpwd', { usertoken: 'token', password: 'abc123' }],
  ['changepwd', { usertoken: 'token', oldpassword: 'abc123', password: 'abc456' }],
  ['changenick', { usertoken: 'token', nickname: '迅捷' }],
  ['bindaccount', { usertoken: 'token', mobile: '13800138000', smscode: '1234' }],
  ['memprofile', { usertoken: 'token' }],
  ['logout', { usertoken: 'token' }],
];

let t: AuthTestApp;

beforeAll(async () => {
  t = await createAuthTestApp();
});

afterAll(async () => {
  await t.close();
});

function post(path: string, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: `/api/v4/${path}`, payload, remoteAddress: freshClient().ip });
}

describe.each(ENDPOINTS)('POST /api/v4/%s', (path, fields) => {
  it('refuses a wrong signature with 10002 and a changed field with 10002', async () => {
    const bad = await post(path, { ...signedBody(t, fields), datasign: '0'.repeat(32) });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toEqual({ code: PROTOCOL_ERRORS.badSignature.code, message: PROTOCOL_ERRORS.badSignature.message });

    const changed = await post(path, { ...signedBody(t, fields), extra: 'added after signing' });
    expect(changed.json()).toMatchObject({ code: PROTOCOL_ERRORS.badSignature.code });
  });

  it('answers once and refuses the replay with 10004', async () => {
    const body = signedBody(t, fields, freshClient().deviceid);
    const first = await post(path, body);
    expect(first.statusCode).toBe(200);
    expect(first.json<{ code: number }>().code).not.toBe(PROTOCOL_ERRORS.replayed.code);
    const replay = await post(path, body);
    expect(replay.statusCode).toBe(409);
    expect(replay.json()).toEqual({ code: PROTOCOL_ERRORS.replayed.code, message: PROTOCOL_ERRORS.replayed.message });
  });
});
