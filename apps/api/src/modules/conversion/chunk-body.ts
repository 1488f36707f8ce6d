import { Transform, type Readable, type TransformCallback } from 'node:stream';

// The raw body of a chunk route (uploadfile, the second client's upload) on its way to storage.
// The request stream is relayed, never handed over: storage's pipeline destroys its source on a
// failure, and a destroyed request could not carry the refusal back to the client.

/** The body of a chunk: the request stream, and its length when the client announced one. */
export interface ChunkBody {
  stream: Readable;
  declaredBytes: number | undefined;
}

export class UploadAbortedError extends Error {
  override readonly name = 'UploadAbortedError';
  constructor() {
    super('the client went away before the chunk was complete');
  }
}

export interface ChunkSource {
  /** What storage reads. */
  stream: Readable;
  /** Whether `judge` refused the head: the stream then ended early and what was stored is partial. */
  refused(): boolean;
}

/**
 * The chunk's bytes for storage. With `judge`, the first `headBytes` (or all, when fewer) are
 * shown to it first; a refusal ends the stream early instead of failing it, so the caller decides
 * what to answer. A client that goes away mid-chunk fails the stream with UploadAbortedError.
 */
export function chunkSource(body: ChunkBody, judge?: { headBytes: number; accept: (head: Buffer) => boolean }): ChunkSource {
  const head: Buffer[] = [];
  let seen = 0;
  let judged = judge === undefined;
  let refused = false;
  const decide = (through: Transform): void => {
    judged = true;
    refused = judge !== undefined && !judge.accept(Buffer.concat(head));
    head.length = 0;
    if (refused) body.stream.unpipe(through);
  };
  const through = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      if (refused) return callback();
      if (!judged) {
        head.push(chunk);
        seen += chunk.length;
        if (judge !== undefined && seen >= judge.headBytes) decide(this);
        if (refused) {
          callback();
          this.end();
          return;
        }
      }
      callback(null, chunk);
    },
    flush(callback: TransformCallback) {
      if (!judged) decide(this);
      callback();
    },
  });
  // An abort may come before storage listens: the error is kept on the stream for it to see.
  through.on('error', () => undefined);
  const onClose = (): void => {
    if (!body.stream.readableEnded && !refused) through.destroy(new UploadAbortedError());
  };
  body.stream.once('close', onClose);
  through.once('close', () => body.stream.off('close', onClose));
  body.stream.pipe(through);
  return { stream: through, refused: () => refused };
}

/** Lets an unread (or no longer read) body flow away, so a refusal can be answered on a usable connection. */
export function discardBody(body: ChunkBody | undefined): void {
  if (body === undefined) return;
  body.stream.unpipe();
  body.stream.resume();
}
