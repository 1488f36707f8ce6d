import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { sendProtocolError } from '../../plugins/errors';

// The image captcha's counterpart of the dev SMS outbox: while codes are not really sent (the
// console SMS provider), the answers of the captchas drawn are readable at
// `GET /api/dev/captcha-outbox?deviceid=…`, so browser tests and local sign-ups can pass the
// captcha round trip. A server sending real SMS has neither outbox.

export interface CaptchaOutboxEntry {
  deviceid: string;
  text: string;
  /** ISO 8601 time the image was drawn. */
  at: string;
}

export class CaptchaOutbox {
  private readonly entries: CaptchaOutboxEntry[] = [];

  constructor(
    private readonly now: () => number,
    private readonly capacity = 500,
  ) {}

  record(deviceid: string, text: string): void {
    this.entries.push({ deviceid, text, at: new Date(this.now()).toISOString() });
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  /** The captchas drawn for `deviceid`, newest first. */
  entriesFor(deviceid: string): CaptchaOutboxEntry[] {
    return this.entries.filter((entry) => entry.deviceid === deviceid).reverse();
  }
}

const ZOutboxQuery = z.object({ deviceid: z.string().min(1).max(64) });

export const captchaOutboxRoutes: FastifyPluginAsync<{ outbox: CaptchaOutbox }> = async (app, { outbox }) => {
  app.get('/api/dev/captcha-outbox', async (request, reply) => {
    const query = ZOutboxQuery.safeParse(request.query);
    if (!query.success) return sendProtocolError(reply, 'malformed');
    return { captchas: outbox.entriesFor(query.data.deviceid) };
  });
};
