import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { endpoints, SUCCESS_CODE, ZPayOrderNo } from '@xcad/protocol';
import type { PayProviderName } from '@xcad/db';
import { z } from 'zod';
import { readFields } from '../../plugins/fields';
import { route } from '../../plugins/route';
import { applyForInvoice, userInvoices } from './invoice.service';
import type { IncomingNotice, NoticeReply, PayProvider } from './pay.provider';
import {
  cancelOrder,
  confirmSandboxOrder,
  handleNotice,
  memberRole,
  noticePathOf,
  orderMerged,
  orderPackage,
  orderState,
  payCatalogue,
  sandboxOrder,
  userOrders,
  type PayDeps,
} from './pay.service';
import type { SandboxPayProvider } from './sandbox.provider';

// The signed calls of memberships, orders and invoices (POST /api/v4/..., spec §7), the
// providers' notice endpoints (POST /api/pay/notify/{provider}: unsigned, verified by the
// provider's own signature over the raw body) and, with the sandbox only, its cashier's routes.

export interface PayRoutesOptions {
  deps: PayDeps;
  sandbox: SandboxPayProvider | null;
}

function send(reply: FastifyReply, answer: NoticeReply) {
  return reply.code(answer.status).header('content-type', answer.contentType).send(answer.body);
}

const ZDevOrder = z.object({ orderno: ZPayOrderNo });

export const payRoutes: FastifyPluginAsync<PayRoutesOptions> = async (app, { deps, sandbox }) => {
  route(app, endpoints.paycatalogue, {
    auth: 'none',
    handler: async () => ({ code: SUCCESS_CODE, message: '', ...(await payCatalogue(deps)) }),
  });

  // spec §7 memrole: one product's membership; the web asks for each of the six after sign-in.
  route(app, endpoints.memrole, {
    auth: 'required',
    handler: async ({ fields, session }) => ({
      code: SUCCESS_CODE,
      message: '',
      userinfo: await memberRole(deps, session.user.id, fields.productid),
    }),
  });

  route(app, endpoints.memorder, {
    auth: 'required',
    handler: async ({ fields, session, request }) => {
      const created = await orderPackage(
        deps,
        { userId: session.user.id, paytype: fields.paytype, clientIp: request.ip },
        fields.productid,
        fields.packageid,
      );
      return { code: SUCCESS_CODE, message: '', ...created };
    },
  });

  route(app, endpoints.paymerge, {
    auth: 'required',
    handler: async ({ fields, session, request }) => {
      const created = await orderMerged(
        deps,
        { userId: session.user.id, paytype: fields.paytype, clientIp: request.ip },
        fields.packageids,
      );
      return { code: SUCCESS_CODE, message: '', ...created };
    },
  });

  // The cashier's poll: anyone holding the order number learns its state, its buyer the details.
  route(app, endpoints.payorderstatedetails, {
    auth: 'optional',
    handler: async ({ fields, session }) => ({
      code: SUCCESS_CODE,
      message: '',
      ...(await orderState(deps, fields.orderno, session?.user.id ?? null)),
    }),
  });

  route(app, endpoints.payorderlist, {
    auth: 'required',
    handler: async ({ fields, session }) => ({ code: SUCCESS_CODE, message: '', ...(await userOrders(deps, session.user.id, fields)) }),
  });

  route(app, endpoints.invoiceapply, {
    auth: 'required',
    handler: async ({ fields, session }) => ({
      code: SUCCESS_CODE,
      message: '',
      invoice: await applyForInvoice(deps, session.user.id, fields),
    }),
  });

  route(app, endpoints.invoicelist, {
    auth: 'required',
    handler: async ({ session }) => ({ code: SUCCESS_CODE, message: '', invoices: await userInvoices(deps, session.user.id) }),
  });

  // Providers' notices: the signature covers the exact bytes, so the body is kept as text.
  const providers = new Map<PayProviderName, PayProvider>();
  for (const provider of Object.values(deps.providers)) providers.set(provider.name, provider);
  await app.register(async (notices) => {
    notices.removeAllContentTypeParsers();
    notices.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, body));
    for (const provider of providers.values()) {
      notices.post(noticePathOf(provider.name), async (request, reply) => {
        const incoming: IncomingNotice = { headers: request.headers, rawBody: typeof request.body === 'string' ? request.body : '' };
        return send(reply, await handleNotice(deps, provider, incoming));
      });
    }
  });

  if (sandbox === null) return;

  // The sandbox cashier's 确认支付: the same notice path as a real provider's, signed by the sandbox.
  app.post('/api/dev/pay/confirm', async (request) => {
    const { orderno } = readFields(ZDevOrder, request.body);
    return { code: SUCCESS_CODE, message: '', ...(await confirmSandboxOrder(deps, sandbox, orderno)) };
  });

  app.post('/api/dev/pay/cancel', async (request) => {
    const { orderno } = readFields(ZDevOrder, request.body);
    await cancelOrder(deps, orderno);
    return { code: SUCCESS_CODE, message: '', ...(await sandboxOrder(deps, orderno)) };
  });

  // The sandbox cashier page (a phone that scanned the QR, no session): the order as a payment app shows it.
  app.post('/api/dev/pay/order', async (request) => {
    const { orderno } = readFields(ZDevOrder, request.body);
    return { code: SUCCESS_CODE, message: '', ...(await sandboxOrder(deps, orderno)) };
  });
};
