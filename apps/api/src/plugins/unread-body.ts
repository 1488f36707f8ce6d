import type { FastifyInstance } from 'fastify';

// Decision 0026: a body refused before it was read (over the limit, an unknown content
// type) made Fastify answer with `Connection: close` and close the socket while the client was
// still sending. Closing a socket with unread data sends a TCP reset, and a proxy in front (the
// web front server, nginx) lost the 413 it was relaying and answered 502 or reset its own client.
// Like nginx's lingering close, the answer is sent on a connection that stays open: the rest of
// the body is read and dropped, for at most `lingerMs`, after which the socket is closed anyway.

export interface UnreadBodyOptions {
  /** How long the rest of a refused body may keep arriving after the answer (default 30 s). */
  lingerMs?: number;
}

export function registerUnreadBodyDrain(app: FastifyInstance, { lingerMs = 30_000 }: UnreadBodyOptions = {}): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const incoming = request.raw;
    if (incoming.complete || reply.getHeader('connection') !== 'close') {
      done(null, payload);
      return;
    }
    reply.removeHeader('connection');
    // The request's destroy() closes its socket (and is there for an injected request too).
    const timer = setTimeout(() => incoming.destroy(), lingerMs);
    timer.unref();
    incoming.once('end', () => clearTimeout(timer));
    incoming.once('close', () => clearTimeout(timer));
    incoming.resume();
    done(null, payload);
  });
}
