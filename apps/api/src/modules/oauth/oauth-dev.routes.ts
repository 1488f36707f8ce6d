import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { SUCCESS_CODE, SUCCESS_MESSAGE, ZNickname, ZWechatStateRequest } from '@xcad/protocol';
import { readFields } from '../../plugins/fields';
import { DEV_DEFAULT_NICKNAMES, devCodeOf, devOpenidOf, QQ_DEV_AUTHORIZE_PATH, type QqDevProvider } from './dev.provider';
import { qqDevAuthorizePage, qqDevBadRequestPage } from './oauth.pages';
import { sendPage } from './oauth.route-helpers';
import { confirmDevWechat, markScanned, type OAuthContext } from './oauth.service';

// The dev providers' helper routes (WECHAT_PROVIDER=dev, QQ_PROVIDER=dev only). Outside /api/v4,
// hence unsigned: they stand in for what WeChat's app and graph.qq.com do.

const ZLogintag = ZWechatStateRequest.shape.logintag;

const ZDevWechatScanRequest = z.object({ logintag: ZLogintag });

const ZDevWechatConfirmRequest = z.object({
  logintag: ZLogintag,
  openid: z.string({ error: 'openid无效' }).regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'openid无效' }),
  nickname: ZNickname,
});

/** `POST /api/dev/wechat/scan` and `/confirm`: what the phone does on /scanlogin/{logintag}. */
export const wechatDevRoutes: FastifyPluginAsync<{ context: OAuthContext }> = async (app, { context }) => {
  app.post('/api/dev/wechat/scan', async (request) => {
    await markScanned(context, readFields(ZDevWechatScanRequest, request.body ?? {}).logintag);
    return { code: SUCCESS_CODE, message: SUCCESS_MESSAGE };
  });

  app.post('/api/dev/wechat/confirm', async (request) => {
    await confirmDevWechat(context, readFields(ZDevWechatConfirmRequest, request.body ?? {}));
    return { code: SUCCESS_CODE, message: SUCCESS_MESSAGE };
  });
};

const ZAuthorizeRequest = z.object({
  state: z.string().min(1).max(128),
  redirect_uri: z.string(),
});

const ZAuthorizeDecision = ZAuthorizeRequest.extend({
  decision: z.enum(['authorize', 'cancel']),
  nickname: z.unknown(),
});

/**
 * `GET|POST /api/dev/qq/authorize`: the dev stand-in for graph.qq.com's authorisation page. Like
 * the real one it sends the popup only to the registered callback, with `code` (or
 * `error=access_denied`) and the `state` it was given.
 */
export const qqDevRoutes: FastifyPluginAsync<{ context: OAuthContext; qq: QqDevProvider }> = async (app, { context, qq }) => {
  const formOrigins = ["'self'", new URL(context.publicOrigin).origin];
  const isRegisteredCallback = (uri: string): boolean => uri === qq.redirectUri;

  app.get(QQ_DEV_AUTHORIZE_PATH, async (request, reply) => {
    const query = ZAuthorizeRequest.safeParse(request.query);
    if (!query.success || !isRegisteredCallback(query.data.redirect_uri)) return sendPage(reply, qqDevBadRequestPage());
    const { state, redirect_uri: redirectUri } = query.data;
    return sendPage(
      reply,
      qqDevAuthorizePage({ state, redirectUri, nickname: DEV_DEFAULT_NICKNAMES.qq, action: QQ_DEV_AUTHORIZE_PATH, formOrigins }),
    );
  });

  app.post(QQ_DEV_AUTHORIZE_PATH, async (request, reply) => {
    const form = ZAuthorizeDecision.safeParse(request.body);
    if (!form.success || !isRegisteredCallback(form.data.redirect_uri)) return sendPage(reply, qqDevBadRequestPage());
    const { state, redirect_uri: redirectUri, decision } = form.data;
    const target = new URL(redirectUri);
    if (decision === 'cancel') {
      target.search = new URLSearchParams({ error: 'access_denied', state }).toString();
      return reply.redirect(target.toString(), 303);
    }
    const nickname = ZNickname.safeParse(form.data.nickname);
    if (!nickname.success) {
      const typed = typeof form.data.nickname === 'string' ? form.data.nickname : '';
      const error = nickname.error.issues[0]?.message;
      return sendPage(
        reply,
        qqDevAuthorizePage({ state, redirectUri, nickname: typed, action: QQ_DEV_AUTHORIZE_PATH, formOrigins, error }),
      );
    }
    target.search = new URLSearchParams({ code: devCodeOf(devOpenidOf(nickname.data)), state }).toString();
    return reply.redirect(target.toString(), 303);
  });
};
