import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  AUTH_ERRORS,
  SUCCESS_CODE,
  ZBindAccountRequest,
  ZChangeNickRequest,
  ZChangePwdRequest,
  ZCommonFields,
  ZImgVerifyRequest,
  ZLoginQuickRequest,
  ZLoginRequest,
  ZLogoutRequest,
  ZMemProfileRequest,
  ZSafForgetPwdRequest,
  ZSafLoginQuickRequest,
  ZSafRegisterRequest,
  ZSafSmsVerifyRequest,
  ZSetPwdRequest,
  ZSmsVerifyRequest,
} from '@xcad/protocol';
import type { z } from 'zod';
import { readFields } from '../../plugins/fields';
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
import { clearSessionCookie, credentialsOf, setSessionCookie } from './session-cookie';
import { sendSmsCode } from './sms-code.service';

// spec §7 sign-in calls (issue 3). Every /api/v4 route is signed (plugins/datasign.ts); each
// handler parses its fields with the protocol schema, calls one service function and answers.

export interface AuthRoutesOptions {
  deps: AuthDeps;
}

const PURGE_INTERVAL_MS = 10 * 60_000;

const ZDeviceOf = ZCommonFields.pick({ deviceid: true });

function fieldsOf<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  return readFields(schema, body, AUTH_ERRORS.invalidField);
}

function contextOf(request: FastifyRequest): SignInContext {
  return { deviceId: ZDeviceOf.parse(request.body).deviceid, ip: request.ip };
}

export const authRoutes: FastifyPluginAsync<AuthRoutesOptions> = async (app, { deps }) => {
  const purge = (): void => {
    purgeAuthRecords(deps).catch((error: unknown) => deps.log.warn({ err: error }, 'purging old sign-in records failed'));
  };
  const timer = setInterval(purge, PURGE_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));

  app.post('/api/v4/imgverify', async (request) => {
    const fields = fieldsOf(ZImgVerifyRequest, request.body);
    const image = await newCaptcha(deps, {
      deviceId: contextOf(request).deviceId,
      width: fields.width,
      height: fields.height,
      fontSize: fields.fontsize,
      length: fields.length,
    });
    return { code: SUCCESS_CODE, message: image };
  });

  for (const [path, schema] of [
    ['/api/v4/smsverify', ZSmsVerifyRequest],
    ['/api/v4/safsmsverify', ZSafSmsVerifyRequest],
  ] as const) {
    app.post(path, async (request) => {
      await sendSmsCode(deps, fieldsOf(schema, request.body), contextOf(request));
      return { code: SUCCESS_CODE, message: '' };
    });
  }

  app.post('/api/v4/loginquick', async (request, reply) => {
    const userinfo = await loginWithSmsCode(deps, fieldsOf(ZLoginQuickRequest, request.body), contextOf(request), true);
    setSessionCookie(reply, request, userinfo.usertoken);
    return { code: SUCCESS_CODE, message: '', userinfo };
  });

  app.post('/api/v4/safloginquick', async (request, reply) => {
    const userinfo = await loginWithSmsCode(deps, fieldsOf(ZSafLoginQuickRequest, request.body), contextOf(request), false);
    setSessionCookie(reply, request, userinfo.usertoken);
    return { code: SUCCESS_CODE, message: '', userinfo };
  });

  app.post('/api/v4/login', async (request, reply) => {
    const userinfo = await loginWithPassword(deps, fieldsOf(ZLoginRequest, request.body), contextOf(request));
    setSessionCookie(reply, request, userinfo.usertoken);
    return { code: SUCCESS_CODE, message: '', userinfo };
  });

  app.post('/api/v4/safregister', async (request) => {
    await register(deps, fieldsOf(ZSafRegisterRequest, request.body));
    return { code: SUCCESS_CODE, message: '' };
  });

  app.post('/api/v4/safforgetpwd', async (request) => {
    await resetPassword(deps, fieldsOf(ZSafForgetPwdRequest, request.body));
    return { code: SUCCESS_CODE, message: '' };
  });

  app.post('/api/v4/setpwd', async (request) => {
    const fields = fieldsOf(ZSetPwdRequest, request.body);
    await setFirstPassword(deps, credentialsOf(request, fields), fields.password);
    return { code: SUCCESS_CODE, message: '' };
  });

  app.post('/api/v4/changepwd', async (request, reply) => {
    const fields = fieldsOf(ZChangePwdRequest, request.body);
    const userinfo = await changePassword(deps, credentialsOf(request, fields), fields, contextOf(request));
    setSessionCookie(reply, request, userinfo.usertoken);
    return { code: SUCCESS_CODE, message: '', userinfo };
  });

  app.post('/api/v4/changenick', async (request) => {
    const fields = fieldsOf(ZChangeNickRequest, request.body);
    const userinfo = await changeNickname(deps, credentialsOf(request, fields), fields.nickname);
    return { code: SUCCESS_CODE, message: '', userinfo };
  });

  app.post('/api/v4/bindaccount', async (request) => {
    const fields = fieldsOf(ZBindAccountRequest, request.body);
    const userinfo = await bindMobile(deps, credentialsOf(request, fields), fields);
    return { code: SUCCESS_CODE, message: '', userinfo };
  });

  app.post('/api/v4/memprofile', async (request) => {
    const fields = fieldsOf(ZMemProfileRequest, request.body);
    const userinfo = await memberProfile(deps, credentialsOf(request, fields), fields.showvip ?? false);
    return { code: SUCCESS_CODE, message: '', userinfo };
  });

  app.post('/api/v4/logout', async (request, reply) => {
    const fields = fieldsOf(ZLogoutRequest, request.body);
    await logout(deps, credentialsOf(request, fields).usertoken);
    clearSessionCookie(reply, request);
    return { code: SUCCESS_CODE, message: '' };
  });
};
