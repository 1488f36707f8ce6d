import { describe, expect, it } from 'vitest';
import { xhrTransport, type XhrLike } from './xhr-transport';

type XhrEvent = 'load' | 'error' | 'abort' | 'timeout';

class FakeXhr implements XhrLike {
  status = 0;
  responseText = '';
  progress: ((event: { readonly loaded: number }) => void)[] = [];
  listeners = new Map<XhrEvent, (() => void)[]>();
  upload: XhrLike['upload'] = { addEventListener: (_type, listener) => this.progress.push(listener) };
  opened: [string, string] | null = null;
  headers: Record<string, string> = {};
  sent: Blob | null = null;
  isAborted = false;
  addEventListener(type: XhrEvent, listener: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  fire(type: XhrEvent) {
    this.listeners.get(type)?.forEach((listener) => listener());
  }
  open(method: string, url: string) {
    this.opened = [method, url];
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: Blob) {
    this.sent = body;
  }
  abort() {
    this.isAborted = true;
    this.fire('abort');
  }
}

function start(signal = new AbortController().signal) {
  const xhr = new FakeXhr();
  const progress: number[] = [];
  const answer = xhrTransport(
    { 'X-Product': '141' },
    () => xhr,
  )({ url: '/api/v4/uploadfile?chunk=0', body: new Blob(['0123456789']), signal, onProgress: (sent) => progress.push(sent) });
  return { xhr, progress, answer };
}

describe("the browser's slice transport", () => {
  it('posts the raw slice and reports the bytes sent as they go', async () => {
    const { xhr, progress, answer } = start();
    expect(xhr.opened).toEqual(['POST', '/api/v4/uploadfile?chunk=0']);
    expect(xhr.headers).toEqual({ 'X-Product': '141', 'Content-Type': 'application/octet-stream' });
    expect(xhr.sent?.size).toBe(10);
    xhr.progress.forEach((listener) => listener({ loaded: 4 }));
    xhr.progress.forEach((listener) => listener({ loaded: 10 }));
    xhr.status = 200;
    xhr.responseText = '{"code":11000}';
    xhr.fire('load');
    await expect(answer).resolves.toEqual({ status: 200, body: { code: 11000 } });
    expect(progress).toEqual([4, 10]);
  });

  it('answers an unreadable body as undefined and a lost connection as a rejection', async () => {
    const first = start();
    first.xhr.status = 502;
    first.xhr.responseText = '<html>Bad gateway</html>';
    first.xhr.fire('load');
    await expect(first.answer).resolves.toEqual({ status: 502, body: undefined });
    const second = start();
    second.xhr.fire('error');
    await expect(second.answer).rejects.toThrow('network error');
  });

  it('stops the request when the upload is cancelled', async () => {
    const controller = new AbortController();
    const { xhr, answer } = start(controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(answer).rejects.toThrow('cancelled');
    expect(xhr.isAborted).toBe(true);
  });
});
