import { seedPayCatalogue } from '@xcad/db';
import { PROTOCOL_ERRORS, type SignableFields } from '@xcad/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postEvents, trackerEvent } from '../modules/analytics/analytics.testing';
import {
  call,
  createAuthTestApp,
  freshClient,
  signedBody,
  signInBySms,
  type AuthTestApp,
  type CallResult,
} from '../modules/auth/auth.testing';

// Decision 0028: on PostgreSQL a NUL in `deviceid`, `tasktag` or an analytics event's `page`
// answered 500 (invalid byte sequence for encoding "UTF8": 0x00), and so did integers past 32 bits
// in `productid`, `packageid` and `packageids` (out of range for type integer). Each now answers
// the contract's refusal on every engine, and nothing is stored. The malformed-input sweep
// (malformed-input.api.test.ts) holds every route to the same; these are the reported cases.

const MALFORMED = { code: PROTOCOL_ERRORS.malformed.code, message: PROTOCOL_ERRORS.malformed.message };
const INVALID_FIELD = 10020;

let t: AuthTestApp;
let member: { account: string; usertoken: string; deviceid: string; ip: string };

beforeAll(async () => {
  t = await createAuthTestApp();
  await seedPayCatalogue(t.database.db);
  const caller = freshClient();
  const { userinfo } = await signInBySms(t, caller);
  member = { account: caller.phone, usertoken: userinfo.usertoken, deviceid: caller.deviceid, ip: caller.ip };
});

afterAll(async () => {
  await t.close();
});

const signedIn = () => ({ account: member.account, usertoken: member.usertoken });
const callAsMember = (path: string, fields: SignableFields) => call(t, path, fields, member);

function expectMalformed(result: CallResult): void {
  expect({ status: result.status, body: result.body }).toEqual({ status: 400, body: MALFORMED });
}

async function ordersOfMember(): Promise<number> {
  const rows = await t.database.db.selectFrom('pay_order').select('id').execute();
  return rows.length;
}

describe('NUL in a field', () => {
  it('in deviceid: tasklist answers 10001 instead of a server error', async () => {
    expectMalformed(await call(t, '/api/v4/tasklist', {}, { deviceid: 'device\u0000x', ip: member.ip }));
  });

  it('in tasktag: taskstate, taskdown and taskcancel answer 10001', async () => {
    for (const path of ['/api/v4/taskstate', '/api/v4/taskdown', '/api/v4/taskcancel']) {
      expectMalformed(await callAsMember(path, { ...signedIn(), tasktag: 'abc\u0000def' }));
    }
  });

  it('in tasktag of the unsigned chunk upload and the QR image: 10001', async () => {
    const chunk = await t.app.inject({
      method: 'POST',
      url: '/api/v4/uploadfile?tasktag=a%00b&timestamp=1&tasktoken=t&fileindex=0&chunks=1&chunk=0',
      payload: Buffer.from('x'),
    });
    expect({ status: chunk.statusCode, body: chunk.json() }).toEqual({ status: 400, body: MALFORMED });
    const qr = await t.app.inject({ method: 'GET', url: '/api/v4/sitetaskdownqrcode?tasktag=a%00b&deviceid=d' });
    expect({ status: qr.statusCode, body: qr.json() }).toEqual({ status: 400, body: MALFORMED });
  });

  it('in an analytics event’s page: the batch is refused with 400 and none of it is stored', async () => {
    const device = `d-${member.deviceid}`;
    const good = trackerEvent(t, device, { event: 'view' });
    const response = await postEvents(t, [good, trackerEvent(t, device, { event: 'view', page: '/tools\u0000x' })], { ip: '10.21.0.1' });
    expect({ status: response.statusCode, body: response.json() }).toEqual({ status: 400, body: MALFORMED });
    const stored = await t.database.db.selectFrom('analytics_events').select('id').where('device_id', '=', device).execute();
    expect(stored).toEqual([]);
  });

  it('in a key, or half a surrogate pair anywhere: 10001', async () => {
    expectMalformed(await callAsMember('/api/v4/memprofile', { ...signedIn(), ['show\u0000vip']: 1 }));
    expectMalformed(await callAsMember('/api/v4/changenick', { ...signedIn(), nickname: 'ab\ud800' }));
  });

  it('in a query of the WordPress API: its own rest_invalid_param answer', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/wp-json/wp/v2/posts?search=a%00b' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { search: expect.any(String) } } });
  });
});

describe('integers beyond the column’s type', () => {
  it('productid of 2^31 and 2^40 (a common field of every signed call): 10001', async () => {
    for (const productid of [2 ** 31, 2 ** 40, String(2 ** 40)])
      expectMalformed(await callAsMember('/api/v4/memrole', { ...signedIn(), productid }));
  });

  it('packageid of 2^31: memorder refuses the field, and no order is placed', async () => {
    const before = await ordersOfMember();
    for (const packageid of [2 ** 31, 2 ** 40, '9223372036854775808']) {
      const result = await callAsMember('/api/v4/memorder', { ...signedIn(), productid: 211, packageid, paytype: 'wxpay' });
      expect({ status: result.status, code: result.body['code'], field: result.body['field'] }).toEqual({
        status: 200,
        code: INVALID_FIELD,
        field: 'packageid',
      });
    }
    expect(await ordersOfMember()).toBe(before);
  });

  it('packageids holding 2^31: paymerge refuses the field, as an array and as a comma list', async () => {
    for (const packageids of [[2 ** 31], [304, 2 ** 40], `304,${2 ** 31}`]) {
      const result = await callAsMember('/api/v4/paymerge', {
        ...signedIn(),
        packageids: packageids as SignableFields[string],
        paytype: 'wxpay',
      });
      expect({ status: result.status, code: result.body['code'], field: result.body['field'] }).toEqual({
        status: 200,
        code: INVALID_FIELD,
        field: 'packageids',
      });
    }
  });
});

describe('bodies no field rule sees', () => {
  it('nested deeper than the contract allows, even looking signed: 10001', async () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    const looksSigned = `{"deviceid":"d","timestamp":${Math.floor(t.clock.now() / 1000)},"datasign":"${'0'.repeat(32)}","x":${deep}}`;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v4/memprofile',
      payload: looksSigned,
      headers: { 'content-type': 'application/json' },
    });
    expect({ status: response.statusCode, body: response.json() }).toEqual({ status: 400, body: MALFORMED });
    const signed = signedBody(t, { nested: [[[[[[[[[[[[[[[[['x']]]]]]]]]]]]]]]]] as unknown as SignableFields[string] });
    const nested = await t.app.inject({ method: 'POST', url: '/api/v4/memprofile', payload: signed });
    expect({ status: nested.statusCode, body: nested.json() }).toEqual({ status: 400, body: MALFORMED });
  });

  it('a payment notice that is not the provider’s: 400, not a server error', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/pay/notify/sandbox',
      payload: '{"event":"paid","orderno":"XC1"}',
      headers: { 'content-type': 'application/json' },
    });
    expect({ status: response.statusCode, body: response.json() }).toEqual({ status: 400, body: { code: 'FAIL' } });
  });
});
