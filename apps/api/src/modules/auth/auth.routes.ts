import type { FastifyPluginAsync } from 'fastify';
import { endpoints, SUCCESS_CODE } from '@xcad/protocol';
import { route, type RouteCall } from '../../plugins/route';
import { clearSessionCookie, setSessionCookie } from '../../plugins/session';
import type { AuthDeps, SignInContext } from './auth.contract';
import {
  bindMobile,
  changeNickname,
  changePassword,
  loginWithPassword,
  loginWithSmsCode,
  logout,
  memberProfile,
  purgeAuthRecords,
  register,
  resetPassword,
  setFirstPassword,
} from './auth.service';
import { newCaptcha } from './captcha.service';
import { sendSmsCode } from './sms-code.service';

// spec §7 sign-in calls. Every /api/v4 route is signed (plugins/datasign.ts) and declared with
// plugins/route.ts: it reads its fields with the protocol schema, calls one service function and
// answers.

export interface AuthRoutesOptions {
  deps: AuthDeps;
}

const PURGE_INTERVAL_MS = 10 * 60_000;

function contextOf(call: Pick<RouteCall<typeof endpoints.login, 'none'>, 'deviceId' | 'request'>): SignInContext {
  return { deviceId: call.deviceId, ip: call.request.ip };
}

export const authRoutes: FastifyPluginAsync<AuthRoutesOptions> = async (app, { deps }) => {
  const purge = (): void => {
    purgeAuthRecords(deps).catch((error: unknown) => deps.log.warn({ err: error }, 'purging old sign-in records failed'));
  };
  const timer = setInterval(purge, PURGE_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));

  route(app, endpoints.imgverify, {
    auth: 'none',
    handler: async (call) => {
      const { fields } = call;
      const image = await newCaptcha(deps, {
        deviceId: call.deviceId,
        width: fields.width,
        height: fields.height,
        fontSize: fields.fontsize,
        length: fields.length,
      });
      return { code: SUCCESS_CODE, message: image };
    },
  });

  for (const endpoint of [endpoints.smsverify, endpoints.safsmsverify]) {
    route(app, endpoint, {
      auth: 'none',
      handler: async (call) => {
        await sendSmsCode(deps, call.fields, contextOf(call));
        return { code: SUCCESS_CODE, message: '' };
      },
    });
  }

  route(app, endpoints.loginquick, {
    auth: 'none',
    handler: async (call) => {
      const userinfo = await loginWithSmsCode(deps, call.fields, contextOf(call), true);
      setSessionCookie(call.reply, call.request, userinfo.usertoken);
      return { code: SUCCESS_CODE, message: '', userinfo };
    },
  });

  route(app, endpoints.safloginquick, {
    auth: 'none',
    handler: async (call) => {
      const userinfo = await loginWithSmsCode(deps, call.fields, contextOf(call), false);
      setSessionCookie(call.reply, call.request, userinfo.usertoken);
      return { code: SUCCESS_CODE, message: '', userinfo };
    },
  });

  route(app, endpoints.login, {
    auth: 'none',
    handler: async (call) => {
      const userinfo = await loginWithPassword(deps, call.fields, contextOf(call));
      setSessionCookie(call.reply, call.request, userinfo.usertoken);
      return { code: SUCCESS_CODE, message: '', userinfo };
    },
  });

  route(app, endpoints.safregister, {
    auth: 'none',
    handler: async ({ fields }) => {
      await register(deps, fields);
      return { code: SUCCESS_CODE, message: '' };
    },
  });

  route(app, endpoints.safforgetpwd, {
    auth: 'none',
    handler: async ({ fields }) => {
      await resetPassword(deps, fields);
      return { code: SUCCESS_CODE, message: '' };
    },
  });

  route(app, endpoints.setpwd, {
    auth: 'required',
    handler: async ({ fields, session }) => {
      await setFirstPassword(deps, session, fields.password);
      return { code: SUCCESS_CODE, message: '' };
    },
  });

  route(app, endpoints.changepwd, {
    auth: 'required',
    handler: async (call) => {
      const userinfo = await changePassword(deps, call.session, call.fields, contextOf(call));
      setSessionCookie(call.reply, call.request, userinfo.usertoken);
      return { code: SUCCESS_CODE, message: '', userinfo };
    },
  });

  route(app, endpoints.changenick, {
    auth: 'required',
    handler: async ({ fields, session }) => {
      const userinfo = await changeNickname(deps, session, fields.nickname);
      return { code: SUCCESS_CODE, message: '', userinfo };
    },
  });

  route(app, endpoints.bindaccount, {
    auth: 'required',
    handler: async ({ fields, session }) => {
      const userinfo = await bindMobile(deps, session, fields);
      return { code: SUCCESS_CODE, message: '', userinfo };
    },
  });

  route(app, endpoints.memprofile, {
    auth: 'required',
    handler: async ({ fields, session }) => {
      const userinfo = await memberProfile(deps, session, fields.showvip ?? false);
      return { code: SUCCESS_CODE, message: '', userinfo };
    },
  });

  // Any token, or none, signs out: the session is ended, not checked.
  route(app, endpoints.logout, {
    auth: 'none',
    handler: async (call) => {
      await logout(deps, call.usertoken);
      clearSessionCookie(call.reply, call.request);
      return { code: SUCCESS_CODE, message: '' };
    },
  });
};
