import type { ChunkTransport } from './upload';

// The browser's slice transport: XMLHttpRequest, because fetch cannot report how much of a
// request body has been sent, and a 50 MB slice on a slow line would leave the bar standing still.

/** The part of XMLHttpRequest the transport uses (tests pass a fake). */
export interface XhrLike {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: Blob): void;
  abort(): void;
  readonly status: number;
  readonly responseText: string;
  readonly upload: { addEventListener(type: 'progress', listener: (event: { readonly loaded: number }) => void): void };
  addEventListener(type: 'load' | 'error' | 'abort' | 'timeout', listener: () => void): void;
}

export function xhrTransport(
  headers: Readonly<Record<string, string>>,
  create: () => XhrLike = () => new XMLHttpRequest(),
): ChunkTransport {
  return ({ url, body, signal, onProgress }) =>
    new Promise((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      const xhr = create();
      const stop = () => xhr.abort();
      const settle = () => signal.removeEventListener('abort', stop);
      xhr.open('POST', url);
      for (const [name, value] of Object.entries({ ...headers, 'Content-Type': 'application/octet-stream' }))
        xhr.setRequestHeader(name, value);
      xhr.upload.addEventListener('progress', (event) => onProgress(event.loaded));
      xhr.addEventListener('load', () => {
        settle();
        let answer: unknown;
        try {
          answer = JSON.parse(xhr.responseText);
        } catch {
          answer = undefined;
        }
        resolve({ status: xhr.status, body: answer });
      });
      const failed = () => {
        settle();
        reject(new TypeError('network error'));
      };
      xhr.addEventListener('error', failed);
      xhr.addEventListener('timeout', failed);
      xhr.addEventListener('abort', () => {
        settle();
        reject(signal.reason ?? new DOMException('aborted', 'AbortError'));
      });
      signal.addEventListener('abort', stop, { once: true });
      xhr.send(body);
    });
}
