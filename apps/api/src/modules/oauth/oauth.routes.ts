import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { endpoints, LOGIN_ERRORS, SUCCESS_CODE, SUCCESS_MESSAGE, ZWechatStateRequest } from '@xcad/protocol';
import { route } from '../../plugins/route';
import { setSessionCookie } from '../../plugins/session';
import type { Accounts, AuthDeps } from '../auth/auth.contract';
import { QqDevProvider } from './dev.provider';
import { qqDevRoutes, wechatDevRoutes } from './oauth-dev.routes';
import { createQqProvider, createWechatProvider } from './oauth.factory';
import { QQ_CALLBACK_PATH } from './oauth.provider';
import { loginExpiredPage, qqAbnormalAccountPage, qqCancelledPage, qqFailedPage, qqSignedInPage } from './oauth.pages';
import { sendPage } from './oauth.route-helpers';
import {
  completeQqCallback,
  completeWechatCallback,
  pollLogin,
  QQ_START_PATH,
  qqAuthorizeUrlOf,
  startLogin,
  type OAuthContext,
} from './oauth.service';

export interface OAuthRoutesOptions {
  deps: AuthDeps;
  accounts: Accounts;
}

// Query strings of the popup; anything odd (repeated or oversized values) reads as absent.
const ZQqStartQuery = z.object({ logintag: ZWechatStateRequest.shape.logintag });
const ZQqCallbackQuery = z.object({
  code: z.string().min(1).max(512).optional().catch(undefined),
  state: z.string().min(1).max(128).optional().catch(undefined),
  error: z.string().min(1).max(128).optional().catch(undefined),
});

/**
 * WeChat QR and QQ popup sign-in (spec §7 wechatguid/wechatstate): the signed `wechatguid`, `wechatstate` and
 * `wechatcallback` under /api/v4, the QQ popup's unsigned start and callback pages, and the dev
 * providers' helper routes when those providers are selected.
 */
export const oauthRoutes: FastifyPluginAsync<OAuthRoutesOptions> = async (app, { deps, accounts }) => {
  const context: OAuthContext = {
    db: deps.db,
    clock: deps.clock,
    publicOrigin: deps.env.PUBLIC_ORIGIN,
    accounts,
    wechat: createWechatProvider(deps.env),
    qq: createQqProvider(deps.env),
  };

  route(app, endpoints.wechatguid, {
    auth: 'none',
    handler: async ({ fields, deviceId }) => {
      const started = await startLogin(context, { provider: fields.provider, deviceId });
      return { code: SUCCESS_CODE, message: SUCCESS_MESSAGE, ...started };
    },
  });

  route(app, endpoints.wechatstate, {
    auth: 'none',
    handler: async ({ fields, deviceId, request, reply }) => {
      const userinfo = await pollLogin(context, {
        logintag: fields.logintag,
        showvip: fields.showvip ?? false,
        context: { deviceId, ip: request.ip },
      });
      setSessionCookie(reply, request, userinfo.usertoken);
      return { code: SUCCESS_CODE, message: SUCCESS_MESSAGE, userinfo };
    },
  });

  route(app, endpoints.wechatcallback, {
    auth: 'none',
    handler: async ({ fields }) => {
      await completeWechatCallback(context, fields);
      return { code: SUCCESS_CODE, message: SUCCESS_MESSAGE };
    },
  });

  app.get(QQ_START_PATH, async (request, reply) => {
    const query = ZQqStartQuery.safeParse(request.query);
    const authorizeUrl = query.success ? await qqAuthorizeUrlOf(context, query.data.logintag) : undefined;
    if (authorizeUrl === undefined) return sendPage(reply, loginExpiredPage());
    return reply.header('cache-control', 'no-store').redirect(authorizeUrl, 302);
  });

  app.get(QQ_CALLBACK_PATH, async (request, reply) => {
    const query = ZQqCallbackQuery.safeParse(request.query);
    const outcome = await completeQqCallback(context, query.success ? query.data : {});
    switch (outcome.kind) {
      case 'signed-in':
        return sendPage(reply, qqSignedInPage(outcome.logintag, context.publicOrigin));
      case 'abnormal':
        request.log.info({ code: LOGIN_ERRORS.accountAbnormal.codes[0] }, 'qq sign-in of a disabled account');
        return sendPage(reply, qqAbnormalAccountPage(outcome.logintag, context.publicOrigin));
      case 'cancelled':
        return sendPage(reply, qqCancelledPage());
      case 'failed':
        // A stale or forged callback is the visitor's business; a failing provider is ours.
        request.log[outcome.reason === 'provider' ? 'warn' : 'info'](
          { reason: outcome.reason, detail: outcome.detail },
          'qq sign-in failed',
        );
        return sendPage(reply, qqFailedPage());
    }
  });

  // The dev providers' helpers exist only while those providers are selected (decision 0026).
  if (context.wechat.name === 'dev') await app.register(wechatDevRoutes, { context });
  if (context.qq instanceof QqDevProvider) await app.register(qqDevRoutes, { context, qq: context.qq });
};
