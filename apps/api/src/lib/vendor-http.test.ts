import type { FetchLike } from '@xcad/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callVendor, callVendorJson, vendorObject, vendorString, vendorText, vendorValue } from './vendor-http';

function answering(status: number, body: string): FetchLike {
  return () => Promise.resolve(new Response(body, { status }));
}

const hanging: FetchLike = (_url, init) =>
  new Promise((_resolve, reject) => {
    init.signal?.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')));
  });

const GET = { method: 'GET', headers: {} } as const;
const ZAnswer = vendorObject({
  code: vendorString,
  name: vendorText,
  extra: vendorValue,
  items: z.array(vendorObject({ id: vendorString })).catch([]),
});

describe('callVendor', () => {
  it('keeps the exact text and the headers of the answer', async () => {
    const reply = await callVendor(
      () => Promise.resolve(new Response('{"a": 1 }', { status: 201, headers: { 'x-sign': 's' } })),
      'https://v.example/',
      GET,
      1000,
    );
    expect(reply.kind === 'answer' && [reply.status, reply.text, reply.headers.get('x-sign')]).toEqual([201, '{"a": 1 }', 's']);
  });

  it('gives up after its timeout and reports a network error, never throwing', async () => {
    expect(await callVendor(hanging, 'https://v.example/', GET, 20)).toEqual({ kind: 'failure', detail: 'no answer within 20 ms' });
    expect(
      await callVendor(() => Promise.reject(new TypeError('getaddrinfo ENOTFOUND v.example')), 'https://v.example/', GET, 1000),
    ).toEqual({
      kind: 'failure',
      detail: 'getaddrinfo ENOTFOUND v.example',
    });
  });
});

describe('callVendorJson', () => {
  it('reads the fields of the schema, an odd field as absent', async () => {
    const reply = await callVendorJson(
      answering(200, '{"code":"OK","name":"","extra":[1],"items":[{"id":7},{"id":"b"}]}'),
      'https://v.example/',
      GET,
      1000,
      ZAnswer,
    );
    expect(reply).toEqual({
      kind: 'answer',
      status: 200,
      body: { code: 'OK', name: undefined, extra: [1], items: [{ id: undefined }, { id: 'b' }] },
    });
  });

  it('reads JSON that is not an object as an empty one', async () => {
    const reply = await callVendorJson(answering(200, '[1,2]'), 'https://v.example/', GET, 1000, ZAnswer);
    expect(reply.kind === 'answer' && reply.body.items).toEqual([]);
  });

  it('calls an answer that is not JSON malformed, a silent vendor unavailable, both named by the label', async () => {
    expect(await callVendorJson(answering(502, '<html>'), 'https://v.example/', GET, 1000, ZAnswer, { label: 'send' })).toEqual({
      kind: 'failure',
      reason: 'malformed',
      detail: 'send: HTTP 502: answer is not JSON',
    });
    expect(await callVendorJson(hanging, 'https://v.example/', GET, 20, ZAnswer, { label: 'send' })).toEqual({
      kind: 'failure',
      reason: 'unavailable',
      detail: 'send: no answer within 20 ms',
    });
  });

  it('counts a 5xx as unavailable without reading it when asked to', async () => {
    expect(
      await callVendorJson(answering(503, '{"code":"OK"}'), 'https://v.example/', GET, 1000, ZAnswer, { serverErrorIsFailure: true }),
    ).toEqual({
      kind: 'failure',
      reason: 'unavailable',
      detail: 'HTTP 503',
    });
    expect(await callVendorJson(answering(503, '{"code":"BUSY"}'), 'https://v.example/', GET, 1000, ZAnswer)).toMatchObject({
      kind: 'answer',
      status: 503,
      body: { code: 'BUSY' },
    });
  });

  it('calls an answer of the wrong shape malformed when the schema is strict', async () => {
    const reply = await callVendorJson(answering(200, '{"n":"x"}'), 'https://v.example/', GET, 1000, z.object({ n: z.number() }));
    expect(reply).toMatchObject({ kind: 'failure', reason: 'malformed' });
  });
});
