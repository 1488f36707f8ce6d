import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { endpoints, PAY_LIMITS, SUCCESS_CODE, WECHAT_OPENID_PATH, ZPayOrderNo, type TPayScene, type TPayType } from '@xcad/protocol';
import type { PayProviderName } from '@xcad/db';
import { z } from 'zod';
import { readFields } from '../../plugins/fields';
import { route } from '../../plugins/route';
import { cookieOf, setCookie } from '../../plugins/session';
import { applyForInvoice, userInvoices } from './invoice.service';
import type { IncomingNotice, NoticeReply, PayProvider } from './pay.provider';
import {
  cancelOrder,
  closeExpiredOrders,
  confirmSandboxOrder,
  handleNotice,
  memberRole,
  orderMerged,
  orderPackage,
  orderState,
  payCatalogue,
  sandboxOrder,
  userOrders,
  type OrderContext,
} from './pay.service';
import { noticePathOf, type PayDeps } from './pay.deps';
import { logReports, reconcileDay, RECONCILE_HOUR, yesterdayOf } from './reconcile.service';
import type { SandboxPayProvider } from './sandbox.provider';
import {
  authorizeUrl,
  backOfState,
  exchangeCode,
  OPENID_COOKIE,
  OPENID_COOKIE_MAX_AGE_SECONDS,
  openidOf,
  safeBackPath,
  sandboxOpenid,
  sealOpenid,
  stateOf,
} from './wechat-openid';

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

export const payRoutes: FastifyPluginAsync<PayRoutesOptions> = async (app, options) => {
  await orderRoutes(app, options);
  await wechatOpenidRoutes(app, options);
};

async function orderRoutes(app: FastifyInstance, { deps, sandbox }: PayRoutesOptions): Promise<void> {
  /** Who orders, from where (decision 0043: the scene, and inside WeChat the openid of the cookie). */
  const orderContext = (request: FastifyRequest, userId: number, fields: { paytype: TPayType; scene: TPayScene }): OrderContext => ({
    userId,
    paytype: fields.paytype,
    clientIp: request.ip,
    scene: fields.scene,
    openid: fields.scene === 'wechat' ? openidOf(deps.env.PRODUCT_SIGN_SECRET, cookieOf(request, OPENID_COOKIE)) : null,
  });

  // Decision 0043: orders that ran out are closed here and at their providers, whoever reads them.
  const sweep = setInterval(() => {
    closeExpiredOrders(deps).catch((error: unknown) => deps.log.warn({ err: error }, 'closing expired orders failed'));
  }, PAY_LIMITS.expirySweepSeconds * 1000);
  sweep.unref();
  // Decision 0043: yesterday's statements, once a day after RECONCILE_HOUR Beijing time (checked hourly).
  let reconciledDay = '';
  const daily = setInterval(() => {
    const now = Math.floor(deps.clock() / 1000);
    const billDate = yesterdayOf(now);
    const beijingHour = new Date((now + 8 * 3_600) * 1000).getUTCHours();
    if (billDate === reconciledDay || beijingHour < RECONCILE_HOUR) return;
    reconciledDay = billDate;
    reconcileDay(deps, billDate).then(
      (reports) => logReports(deps, reports),
      (error: unknown) => deps.log.warn({ err: error, billDate }, 'reconciliation failed'),
    );
  }, 3_600_000);
  daily.unref();
  app.addHook('onClose', () => {
    clearInterval(sweep);
    clearInterval(daily);
  });

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
      const created = await orderPackage(deps, orderContext(request, session.user.id, fields), fields.productid, fields.packageid);
      return { code: SUCCESS_CODE, message: '', ...created };
    },
  });

  route(app, endpoints.paymerge, {
    auth: 'required',
    handler: async ({ fields, session, request }) => {
      const created = await orderMerged(deps, orderContext(request, session.user.id, fields), fields.packageids);
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
}

/**
 * Decision 0043: the buyer's openid for JSAPI. GET WECHAT_OPENID_PATH?back=/path sends WeChat's
 * browser through OAuth (snsapi_base) and back; the callback keeps the openid in a signed cookie.
 * With the sandbox taking WeChat Pay, a sandbox openid is set at once.
 */
async function wechatOpenidRoutes(app: FastifyInstance, { deps }: PayRoutesOptions): Promise<void> {
  const secret = deps.env.PRODUCT_SIGN_SECRET;
  const now = () => Math.floor(deps.clock() / 1000);
  const callbackPath = `${WECHAT_OPENID_PATH}/callback`;
  const keep = (request: FastifyRequest, reply: FastifyReply, openid: string) =>
    setCookie(reply, request, OPENID_COOKIE, sealOpenid(secret, openid), OPENID_COOKIE_MAX_AGE_SECONDS);

  app.get(WECHAT_OPENID_PATH, async (request, reply) => {
    const back = safeBackPath((request.query as Record<string, unknown>)['back']);
    if (deps.providers.wxpay.name !== 'wechatpay') {
      keep(request, reply, sandboxOpenid());
      return reply.redirect(back, 302);
    }
    const appid = deps.env.WECHATPAY_APPID ?? '';
    const redirectUri = new URL(callbackPath, deps.env.PUBLIC_ORIGIN).toString();
    return reply.redirect(authorizeUrl(appid, redirectUri, stateOf(secret, back, now())), 302);
  });

  app.get(callbackPath, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const back = backOfState(secret, query['state'], now());
    if (back === null) return reply.code(400).type('text/plain; charset=utf-8').send('授权已过期，请返回重新打开页面');
    const code = query['code'];
    const appid = deps.env.WECHATPAY_APPID;
    const mpSecret = deps.env.WECHATPAY_MP_SECRET;
    // Without a code the buyer declined (snsapi_base never asks, so WeChat failed): back without an openid.
    if (typeof code !== 'string' || code === '' || appid === undefined || mpSecret === undefined) return reply.redirect(back, 302);
    const exchanged = await exchangeCode({ appid, secret: mpSecret }, code);
    if (typeof exchanged === 'string') deps.log.warn({ detail: exchanged }, 'WeChat OAuth code exchange failed');
    else keep(request, reply, exchanged.openid);
    return reply.redirect(back, 302);
  });
}
