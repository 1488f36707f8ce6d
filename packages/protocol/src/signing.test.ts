import { describe, expect, it } from 'vitest';
import { computeDatasign, isDatasignValid, signFields, signaturePayload, signedValueOf } from './signing';

// Expected digests were computed outside this code base, e.g. `printf '%s' 'a=1&b=2test-secret' | md5sum`.

describe('signaturePayload (spec §7)', () => {
  it('sorts keys and joins k=v with &', () => {
    expect(signaturePayload({ b: '2', a: '1' })).toBe('a=1&b=2');
  });

  it('sorts by code unit, capitals first', () => {
    expect(signaturePayload({ b: 3, a: 1, B: 2 })).toBe('B=2&a=1&b=3');
  });

  it('leaves out empty, null and undefined values and the datasign itself', () => {
    expect(signaturePayload({ a: '1', empty: '', nothing: null, missing: undefined, datasign: 'x', b: '2' })).toBe('a=1&b=2');
  });

  it('keeps zero and false, which are not empty', () => {
    expect(signaturePayload({ n: 0, flag: false })).toBe('flag=false&n=0');
  });

  it('signs objects as their JSON text', () => {
    expect(signedValueOf({ a: [1, 2] })).toBe('{"a":[1,2]}');
    expect(signedValueOf(true)).toBe('true');
    expect(signedValueOf(12.5)).toBe('12.5');
    expect(signedValueOf('')).toBeUndefined();
  });
});

describe('computeDatasign', () => {
  it('is the MD5 of the payload followed directly by the secret', () => {
    expect(computeDatasign({ b: '2', a: '1' }, 'test-secret')).toBe('499fb1d5af620cc6e0bf6f0f872a2216');
    expect(computeDatasign({ b: 3, a: 1, B: 2 }, 'k')).toBe('0bde5aa81482bdb032cd2fd46cd27fd9');
  });

  it('signs a realistic body with numbers, empties and the secret', () => {
    const body = {
      timestamp: 1_763_712_000,
      account: '13800138000',
      productid: 211,
      deviceid: 'abc',
      showvip: 1,
      imgcode: '',
      nonce: null,
    };
    expect(computeDatasign(body, 'dev-secret')).toBe('1f259178c840dbb3afe99b311aa17566');
  });

  it('signs Chinese text, booleans, zero and objects', () => {
    const body = { obj: { a: [1, 2] }, name: '迅捷', n: 0, flag: true };
    expect(computeDatasign(body, 's3')).toBe('b4e46773246bfbfa3db483b0314e8dd0');
  });

  it('signs the same body the same whether a value is a number or its string', () => {
    expect(computeDatasign({ productid: 211 }, 's')).toBe(computeDatasign({ productid: '211' }, 's'));
  });
});

describe('signFields and isDatasignValid', () => {
  const body = { account: '13800138000', timestamp: 1_763_712_000, softname: 'xunjiecadeditor' };

  it('adds a datasign the server accepts', () => {
    const signed = signFields(body, 'secret');
    expect(signed).toMatchObject(body);
    expect(isDatasignValid(signed, 'secret')).toBe(true);
    expect(isDatasignValid({ ...signed, datasign: signed.datasign.toUpperCase() }, 'secret')).toBe(true);
  });

  it('refuses a tampered field, another secret, or a missing or malformed datasign', () => {
    const signed = signFields(body, 'secret');
    expect(isDatasignValid({ ...signed, account: '13800138001' }, 'secret')).toBe(false);
    expect(isDatasignValid({ ...signed, extra: 'x' }, 'secret')).toBe(false);
    expect(isDatasignValid(signed, 'other')).toBe(false);
    expect(isDatasignValid(body, 'secret')).toBe(false);
    expect(isDatasignValid({ ...signed, datasign: signed.datasign.slice(1) }, 'secret')).toBe(false);
  });

  it('accepts an added empty field, which is not signed', () => {
    const signed = signFields(body, 'secret');
    expect(isDatasignValid({ ...signed, imgcode: '' }, 'secret')).toBe(true);
  });
});
