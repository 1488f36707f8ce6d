import { AUTH_ERRORS, defineEndpoint, SESSION_COOKIE, successOf, SUCCESS_CODE, ZSignedIn } from '@xcad/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call, createAuthTestApp, freshClient, signInBySms, type AuthTestApp } from '../modules/auth/auth.testing';
import { route, type AuthMode } from './route';

// plugins/route.ts on the real app (decision 0030): the endpoint's schema read once (10020 and
// the field), and the caller's session resolved once, by each auth mode, from the body's
// usertoken or else the session cookie.

const ZProbeRequest = ZSignedIn.extend({ n: z.coerce.number().int().min(1, { error: 'n至少为1' }) });
const ZProbeResponse = successOf({ uid: z.string().nullable(), n: z.number(), device: z.string() });

const probes = {
  required: defineEndpoint({ path: '/api/v4/test-route-required', request: ZProbeRequest, response: ZProbeResponse }),
  'if-given': defineEndpoint({ path: '/api/v4/test-route-if-given', request: ZProbeRequest, response: ZProbeResponse }),
  optional: defineEndpoint({ path: '/api/v4/test-route-optional', request: ZProbeRequest, response: ZProbeResponse }),
} satisfies Partial<Record<AuthMode, unknown>>;

let t: AuthTestApp;
let usertoken: string;
const caller = freshClient();
const DEAD_TOKEN = 'f'.repeat(64);

beforeAll(async () => {
  t = await createAuthTestApp();
  for (const auth of ['required', 'if-given', 'optional'] as const) {
    route(t.app, probes[auth], {
      auth,
      handler: async ({ fields, session, deviceId }) => ({
        code: SUCCESS_CODE,
        message: '',
        uid: session === null ? null : String(session.user.id),
        n: fields.n,
        device: deviceId,
      }),
    });
  }
  usertoken = (await signInBySms(t, caller)).userinfo.usertoken;
});

afterAll(async () => {
  await t.close();
});

const notSignedIn = { code: AUTH_ERRORS.notSignedIn.codes[0], message: AUTH_ERRORS.notSignedIn.message };

describe('route()', () => {
  it('answers 10020 with the rule of the first broken field, before looking at the session', async () => {
    const result = await call(t, probes.required.path, { n: 0 }, caller);
    expect(result.body).toEqual({ code: 10020, message: 'n至少为1', field: 'n' });
  });

  it('required: the body usertoken, else the session cookie; without either, 10060', async () => {
    const byBody = await call(t, probes.required.path, { n: 1, usertoken }, caller);
    expect(byBody.body).toMatchObject({ code: SUCCESS_CODE, n: 1, device: caller.deviceid });
    const uid = byBody.body['uid'];
    expect(uid).toMatch(/^\d+$/);
    const byCookie = await call(t, probes.required.path, { n: 2 }, caller, { cookie: `${SESSION_COOKIE}=${usertoken}` });
    expect(byCookie.body).toMatchObject({ code: SUCCESS_CODE, uid });
    // The body's token wins over the cookie's.
    const both = await call(t, probes.required.path, { n: 3, usertoken }, caller, { cookie: `${SESSION_COOKIE}=${DEAD_TOKEN}` });
    expect(both.body).toMatchObject({ code: SUCCESS_CODE, uid });
    expect((await call(t, probes.required.path, { n: 4 }, caller)).body).toEqual(notSignedIn);
  });

  it('if-given: no usertoken is a visitor, a dead one is refused', async () => {
    expect((await call(t, probes['if-given'].path, { n: 1 }, caller)).body).toMatchObject({ code: SUCCESS_CODE, uid: null });
    expect((await call(t, probes['if-given'].path, { n: 1, usertoken: DEAD_TOKEN }, caller)).body).toEqual(notSignedIn);
    expect((await call(t, probes['if-given'].path, { n: 1, usertoken }, caller)).body).toMatchObject({
      code: SUCCESS_CODE,
      uid: expect.stringMatching(/^\d+$/),
    });
  });

  it('optional: a dead usertoken reads as a visitor', async () => {
    expect((await call(t, probes.optional.path, { n: 1, usertoken: DEAD_TOKEN }, caller)).body).toMatchObject({
      code: SUCCESS_CODE,
      uid: null,
    });
    expect((await call(t, probes.optional.path, { n: 1 }, caller, { cookie: `${SESSION_COOKIE}=${usertoken}` })).body).toMatchObject({
      code: SUCCESS_CODE,
      uid: expect.stringMatching(/^\d+$/),
    });
  });
});
