import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PROTOCOL_ERRORS } from '@xcad/protocol';
import { isApiPath } from '../lib/api-paths';

// The site's single origin (:3000). Browsers, the desktop shell and API clients all talk to it;
// product API, content API and health checks are streamed to the API process, everything else goes
// to Next.js. Streaming (not buffering) matters: conversion uploads send 50 MB chunks (spec §9).
// Why not next.config rewrites: production builds freeze them, with the API address, at build time.

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function forwardHeaders(req: IncomingMessage): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  }
  const remote = req.socket.remoteAddress ?? '';
  const prior = req.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = prior ? `${String(prior)}, ${remote}` : remote;
  headers['x-forwarded-host'] = req.headers['x-forwarded-host'] ?? req.headers.host ?? '';
  headers['x-forwarded-proto'] = req.headers['x-forwarded-proto'] ?? ('encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http');
  return headers;
}

/** How long the rest of a body the API no longer reads may keep arriving after its answer. */
const LINGER_MS = 30_000;

function answerBadGateway(res: ServerResponse): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const { code, message } = PROTOCOL_ERRORS.internal;
  res.writeHead(502, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ code, message }));
}

export interface FrontServerOptions {
  apiOrigin: string;
  handleNext: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;
  onProxyError?: (error: Error, req: IncomingMessage) => void;
}

export function createFrontServer({ apiOrigin, handleNext, onProxyError }: FrontServerOptions): http.Server {
  const upstream = new URL(apiOrigin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

  function proxy(req: IncomingMessage, res: ServerResponse): void {
    let isAnswered = false;
    const outgoing = http.request(
      {
        protocol: upstream.protocol,
        hostname: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: forwardHeaders(req),
        agent,
      },
      (answer) => {
        isAnswered = true;
        const headers: http.OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
        }
        res.writeHead(answer.statusCode ?? 502, headers);
        // An API that dies mid-answer: the client must see a cut answer, not a complete one.
        answer.on('error', () => res.destroy());
        answer.on('end', () => {
          if (!req.complete) dropRestOfBody();
        });
        answer.pipe(res);
      },
    );
    // Decision 0026, a 413 through a proxy: the API answered (a 413) before the whole body came. Node's client sends
    // nothing more once the answer is complete, so the body is no longer forwarded: the rest is
    // read and dropped (for at most LINGER_MS), or the client, still sending, never reads the answer.
    function dropRestOfBody(): void {
      req.unpipe(outgoing);
      outgoing.destroy();
      const timer = setTimeout(() => req.socket.destroy(), LINGER_MS);
      timer.unref();
      req.once('end', () => clearTimeout(timer));
      req.once('close', () => clearTimeout(timer));
      req.resume();
    }
    outgoing.on('error', (error) => {
      // After an answer, a failed write only means the API stopped reading the body.
      if (isAnswered) return;
      onProxyError?.(error, req);
      answerBadGateway(res);
    });
    // A client that goes away mid-upload must not leave the upstream request hanging.
    res.on('close', () => {
      if (!res.writableFinished) outgoing.destroy();
    });
    req.pipe(outgoing);
  }

  const server = http.createServer((req, res) => {
    if (isApiPath(req.url ?? '/')) {
      proxy(req, res);
      return;
    }
    void Promise.resolve(handleNext(req, res)).catch((error: unknown) => {
      console.error('[web] request failed', error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end();
    });
  });
  server.on('close', () => agent.destroy());
  return server;
}
