import { Readable } from 'node:stream';
import { MAX_INPUT_DEPTH } from '@xcad/protocol';
import { describe, expect, it } from 'vitest';
import { inputProblemOf } from './input-guard';

const nested = (depth: number): unknown => {
  let value: unknown = 'x';
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
};

describe('inputProblemOf', () => {
  it('passes what the contract sends: objects, arrays, numbers, any text but NUL and half characters', () => {
    expect(inputProblemOf({ events: [{ page: '/图纸', title: 'a\tb\u0001', time: 1 }], n: null, ok: true })).toBeUndefined();
    expect(inputProblemOf(undefined)).toBeUndefined();
    expect(inputProblemOf('{"raw":"notice"}')).toBeUndefined();
  });

  it('names the top-level field holding NUL or half a surrogate pair, in a value or a name', () => {
    expect(inputProblemOf({ deviceid: 'a\u0000' })).toMatchObject({ field: 'deviceid' });
    expect(inputProblemOf({ events: [{ page: '/a\u0000' }] })).toMatchObject({ field: 'events' });
    expect(inputProblemOf({ packageids: ['1', 'x\ud800'] })).toMatchObject({ field: 'packageids' });
    expect(inputProblemOf({ ['a\u0000b']: 1 })).toMatchObject({ field: 'a\u0000b', reason: expect.stringContaining('name') });
    expect(inputProblemOf('raw\u0000body')).toMatchObject({ field: '' });
  });

  it('reads the query parser’s dictionaries (no Object prototype) like plain objects', () => {
    const dictionary = Object.create(Object.create(null) as object) as Record<string, unknown>;
    dictionary['tasktag'] = 'a\u0000';
    expect(inputProblemOf(dictionary)).toMatchObject({ field: 'tasktag' });
  });

  it('refuses nesting deeper than MAX_INPUT_DEPTH without recursing, and allows it up to there', () => {
    expect(inputProblemOf({ x: nested(MAX_INPUT_DEPTH - 1) })).toBeUndefined();
    expect(inputProblemOf({ x: nested(MAX_INPUT_DEPTH) })).toMatchObject({ field: 'x', reason: expect.stringContaining('deeper') });
    expect(inputProblemOf(nested(200_000))).toMatchObject({ reason: expect.stringContaining('deeper') });
  });

  it('leaves the raw-body routes’ streams and buffers alone', () => {
    expect(inputProblemOf(Readable.from(['a\u0000']))).toBeUndefined();
    expect(inputProblemOf(Buffer.from([0, 0xff]))).toBeUndefined();
  });
});
