import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiError,
  PAY_ERRORS,
  SUCCESS_CODE,
  ZInvoiceApplyRequest,
  ZInvoiceListRequest,
  ZMemOrderRequest,
  ZMemRoleRequest,
  ZPayCatalogueRequest,
  ZPayMergeRequest,
  ZPayOrderListRequest,
  ZPayOrderNo,
  ZPayOrderStateRequest,
} from '@xcad/protocol';
import type { PayProviderName } from '@xcad/db';
import { z } from 'zod';
import { readFields } from '../../plugins/fields';
import { credentialsOf } from '../auth/session-cookie';
import { resolveSignedIn, signedInUserIdOrNull } from '../auth/session.service';
import { applyForInvoice, userInvoices } from './invoice.service';
import type { IncomingNotice, NoticeReply, PayProvider } from './pay.provider';
import { membershipOf, orderByNo } from './pay.repository';
import { cancelOrder, handleNotice, orderMerged, orderPackage, orderState, payCatalogue, sandboxOrder, userOrders, type PayDeps } from './pay.service';
import type { SandboxPayProvider } from './sandbox.provider';

// Issue 4: the signed calls of memberships, orders and invoices (POST /api/v4/..., spec §7), the
// providers' notice endpoints (POST /api/pay/notify/{provider}: unsigned, verified by the
// provider's own signature over the raw body) and, with the sandbox only, its cashier's routes.

export interface PayRoutesOptions {
  deps: PayDeps;
  sandbox: SandboxPayProvider | null;
}

function fieldsOf<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  return readFields(schema, body, PAY_ERRORS.invalidField);
}

const seconds = (deps: PayDeps) => Math.floor(deps.clock() / 1000);

async function signedInUser(deps: PayDeps, request: FastifyRequest, fields: { usertoken?: string | undefined; account?: string | undefined }) {
  return (await resolveSignedIn(deps.db, credentialsOf(request, fields), seconds(deps))).user;
}

function send(reply: FastifyReply, answer: NoticeReply) {
  return reply.code(answer.status).header('content-type', answer.contentType).send(answer.body);
}

const ZDevOrder = z.object({ orderno: ZPayOrderNo });

export const payRoutes: FastifyPluginAsync<PayRoutesOptions> = async (app, { deps, sandbox }) => {
  app.post('/api/v4/paycatalogue', async (request) => {
    fieldsOf(ZPayCatalogueRequest, request.body);
    return { code: SUCCESS_CODE, message: '', ...(await payCatalogue(deps)) };
  });

  // spec §7 memrole: one product's membership; the web asks for each of the six after sign-in.
  app.post('/api/v4/memrole', async (request) => {
    const fields = fieldsOf(ZMemRoleRequest, request.body);
    const user = await signedInUser(deps, request, fields);
    const expiry = await membershipOf(deps.db, user.id, fields.productid);
    const vip = expiry === undefined ? [] : [{ productid: fields.productid, auth_value: expiry }];
    return { code: SUCCESS_CODE, message: '', userinfo: { nowtime: seconds(deps), vip } };
  });

  app.post('/api/v4/memorder', async (request) => {
    const fields = fieldsOf(ZMemOrderRequest, request.body);
    const user = await signedInUser(deps, request, fields);
    const created = await orderPackage(deps, { userId: user.id, paytype: fields.paytype, clientIp: request.ip }, fields.productid, fields.packageid);
    return { code: SUCCESS_CODE, message: '', ...created };
  });

  app.post('/api/v4/paymerge', async (request) => {
    const fields = fieldsOf(ZPayMergeRequest, request.body);
    const user = await signedInUser(deps, request, fields);
    const created = await orderMerged(deps, { userId: user.id, paytype: fields.paytype, clientIp: request.ip }, fields.packageids);
    return { code: SUCCESS_CODE, message: '', ...created };
  });

  // The cashier's poll: anyone holding the order number learns its state, its buyer the details.
  app.post('/api/v4/payorderstatedetails', async (request) => {
    const fields = fieldsOf(ZPayOrderStateRequest, request.body);
    return { code: SUCCESS_CODE, message: '', ...(await orderState(deps, fields.orderno, await signedInUserIdOrNull(deps.db, credentialsOf(request, fields), seconds(deps)))) };
  });

  app.post('/api/v4/payorderlist', async (request) => {
    const fields = fieldsOf(ZPayOrderListRequest, request.body);
    const user = await signedInUser(deps, request, fields);
    return { code: SUCCESS_CODE, message: '', ...(await userOrders(deps, user.id, fields)) };
  });

  app.post('/api/v4/invoiceapply', async (request) => {
    const fields = fieldsOf(ZInvoiceApplyRequest, request.body);
    const user = await signedInUser(deps, request, fields);
    return { code: SUCCESS_CODE, message: '', invoice: await applyForInvoice(deps, user.id, fields) };
  });

  app.post('/api/v4/invoicelist', async (request) => {
    const fields = fieldsOf(ZInvoiceListRequest, request.body);
    const user = await signedInUser(deps, request, fields);
    return { code: SUCCESS_CODE, message: '', invoices: await userInvoices(deps, user.id) };
  });

  // Providers' notices: the signature covers the exact bytes, so the body is kept as text.
  const providers = new Map<PayProviderName, PayProvider>();
  for (const provider of Object.values(deps.providers)) providers.set(provider.name, provider);
  await app.register(async (notices) => {
    notices.removeAllContentTypeParsers();
    notices.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, body));
    for (const provider of providers.values()) {
      notices.post(`/api/pay/notify/${provider.name}`, async (request, reply) => {
        const incoming: IncomingNotice = { headers: request.headers, rawBody: typeof request.body === 'string' ? request.body : '' };
        return send(reply, await handleNotice(deps, provider, incoming));
      });
    }
  });

  if (sandbox === null) return;

  // The sandbox cashier's 确认支付: the same notice path as a real provider's, signed by the sandbox.
  app.post('/api/dev/pay/confirm', async (request) => {
    const { orderno } = fieldsOf(ZDevOrder, request.body);
    const order = await orderByNo(deps.db, orderno);
    if (order === undefined || order.provider !== sandbox.name) throw ApiError.business(PAY_ERRORS.orderUnknown, `sandbox confirm of unknown order ${orderno}`);
    const notice = sandbox.signNotice({ orderno, transactionId: `SANDBOX${orderno.slice(2)}`, amountFen: order.amount_fen, paidAt: seconds(deps) });
    const answer = await handleNotice(deps, sandbox, notice);
    if (answer.status !== 200) throw new Error(`sandbox notice for ${orderno} was not recorded`);
    return { code: SUCCESS_CODE, message: '', ...(await sandboxOrder(deps, orderno)) };
  });

  app.post('/api/dev/pay/cancel', async (request) => {
    const { orderno } = fieldsOf(ZDevOrder, request.body);
    await cancelOrder(deps, orderno);
    return { code: SUCCESS_CODE, message: '', ...(await sandboxOrder(deps, orderno)) };
  });

  // The sandbox cashier page (a phone that scanned the QR, no session): the order as a payment app shows it.
  app.post('/api/dev/pay/order', async (request) => {
    const { orderno } = fieldsOf(ZDevOrder, request.body);
    return { code: SUCCESS_CODE, message: '', ...(await sandboxOrder(deps, orderno)) };
  });
};
