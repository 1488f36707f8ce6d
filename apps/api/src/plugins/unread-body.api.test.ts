import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PROTOCOL_ERRORS } from '@xcad/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFrontServer } from '../../../web/server/front-server';
import { createTestApp, type TestApp } from '../test-app';

// Decision 0026: a body over the API's limit sent through the web front server (the site's
// :3000) came back as 502 or a connection reset, while the API alone answered 413. Both servers
// here are the real ones, over real sockets.

let t: TestApp;
let front: http.Server;
let site: string;
const MiB = 1024 * 1024;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as AddressInfo;
  front = createFrontServer({ apiOrigin: `http://127.0.0.1:${port}`, handleNext: () => undefined });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  site = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => front.close(resolve));
  await t.close();
});

const jsonOf = (bytes: number) => JSON.stringify({ filler: 'x'.repeat(bytes) });

/** A body sent in pieces without a Content-Length, so the API finds it too large only as it reads. */
function streamed(bytes: number): ReadableStream<Uint8Array> {
  const piece = new Uint8Array(64 * 1024).fill(0x61);
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) controller.close();
      else {
        controller.enqueue(piece);
        sent += piece.length;
      }
    },
  });
}

describe('a body over the limit, through the web front server (decision 0026)', () => {
  it('answers the API’s 413 envelope, whatever the size, and the site keeps serving', async () => {
    for (const size of [2 * MiB, 8 * MiB, 30 * MiB, 2 * MiB, 8 * MiB]) {
      const response = await fetch(`${site}/api/v4/login`, {
        method: 'POST',
        body: jsonOf(size),
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status, `${size} bytes`).toBe(413);
      expect(await response.json()).toEqual({ code: PROTOCOL_ERRORS.malformed.code, message: PROTOCOL_ERRORS.malformed.message });
    }
    const health = await fetch(`${site}/health`);
    expect(health.status).toBe(200);
  });

  it('answers 413 to a body that turns out too large only as it streams in', async () => {
    const response = await fetch(`${site}/api/v4/login`, {
      method: 'POST',
      body: streamed(6 * MiB),
      headers: { 'content-type': 'application/json' },
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: PROTOCOL_ERRORS.malformed.code });
  });

  it('passes the routes’ own 413 answers through (analytics batch, feedback screenshots)', async () => {
    const analytics = await fetch(`${site}/api/analytics/events`, {
      method: 'POST',
      body: jsonOf(4 * MiB),
      headers: { 'content-type': 'application/json' },
    });
    expect(analytics.status).toBe(413);
    const feedback = await fetch(`${site}/api/v4/feedbacksubmit`, {
      method: 'POST',
      body: jsonOf(12 * MiB),
      headers: { 'content-type': 'application/json' },
    });
    expect(feedback.status).toBe(413);
    expect(await feedback.json()).toMatchObject({ field: 'screenshots' });
  });
});
