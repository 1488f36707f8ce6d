import type { FastifyReply } from 'fastify';
import type { HtmlPage } from './oauth.pages';

// What the oauth routes share: answering the popup's pages.

export function sendPage(reply: FastifyReply, page: HtmlPage): FastifyReply {
  return (
    reply
      .code(page.status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', page.csp)
      // The popup's URLs carry OAuth codes and states: never cached, never sent on as a referrer.
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .send(page.html)
  );
}
