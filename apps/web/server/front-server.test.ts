import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createFrontServer } from './front-server';

const servers: http.Server[] = [];

async function listen(server: http.Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** An upstream that answers with what it received: method, url, body size and selected headers. */
function echoUpstream(): http.Server {
  return http.createServer((req, res) => {
    let size = 0;
    req.on('data', (chunk: Buffer) => (size += chunk.length));
    req.on('end', () => {
      res.writeHead(201, { 'content-type': 'application/json', 'machine-id': '20-201', connection: 'keep-alive' });
      res.end(
        JSON.stringify({
          method: req.method,
          url: req.url,
          size,
          forwardedFor: req.headers['x-forwarded-for'],
          forwardedHost: req.headers['x-forwarded-host'],
          product: req.headers['x-product'],
        }),
      );
    });
  });
}

describe('createFrontServer', () => {
  it('streams a large request body to the API and relays status, headers and body', async () => {
    const apiOrigin = await listen(echoUpstream());
    const front = await listen(createFrontServer({ apiOrigin, handleNext: () => undefined }));
    const body = new Uint8Array(8 * 1024 * 1024).fill(7);

    const response = await fetch(`${front}/api/v4/uploadfile?tasktag=abc&chunk=0`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/octet-stream', 'x-product': '141' },
    });

    expect(response.status).toBe(201);
    expect(response.headers.get('machine-id')).toBe('20-201');
    const echoed = (await response.json()) as Record<string, unknown>;
    expect(echoed).toMatchObject({ method: 'POST', url: '/api/v4/uploadfile?tasktag=abc&chunk=0', size: body.length, product: '141' });
    expect(echoed['forwardedFor']).toContain('127.0.0.1');
    expect(echoed['forwardedHost']).toBe(new URL(front).host);
  });

  it('hands page requests to Next.js untouched', async () => {
    const seen: string[] = [];
    const front = await listen(
      createFrontServer({
        apiOrigin: 'http://127.0.0.1:9',
        handleNext: (req, res) => {
          seen.push(req.url ?? '');
          res.end('page');
        },
      }),
    );
    const response = await fetch(`${front}/help.html?x=1`);
    expect(await response.text()).toBe('page');
    expect(seen).toEqual(['/help.html?x=1']);
  });

  it('answers 502 with the error envelope when the API is down, without a stack trace', async () => {
    const closed = http.createServer();
    const apiOrigin = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    servers.splice(servers.indexOf(closed), 1);
    const errors: string[] = [];
    const front = await listen(
      createFrontServer({ apiOrigin, handleNext: () => undefined, onProxyError: (error) => errors.push(error.message) }),
    );

    const response = await fetch(`${front}/api/v4/getutctime`);
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ code: 10500, message: '服务器繁忙，请稍后再试' });
    expect(errors).toHaveLength(1);
  });
});
