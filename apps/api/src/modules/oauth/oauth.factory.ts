import type { Env } from '../../env';
import { QqDevProvider, WechatDevProvider } from './dev.provider';
import type { QqProvider, WechatProvider } from './oauth.provider';
import { QqConnectProvider } from './qq-connect.provider';
import { WechatOpenPlatformProvider } from './wechat-open-platform.provider';

type OAuthEnv = Pick<
  Env,
  'PUBLIC_ORIGIN' | 'WECHAT_PROVIDER' | 'WECHAT_APP_ID' | 'WECHAT_APP_SECRET' | 'QQ_PROVIDER' | 'QQ_APP_ID' | 'QQ_APP_KEY'
>;

/** A variable loadEnv has already required for the chosen provider. */
function required(value: string | undefined, name: string): string {
  if (value === undefined) throw new Error(`${name} is required by the configured sign-in provider`);
  return value;
}

/** The WeChat provider WECHAT_PROVIDER names. */
export function createWechatProvider(env: OAuthEnv): WechatProvider {
  switch (env.WECHAT_PROVIDER) {
    case 'dev':
      return new WechatDevProvider(env.PUBLIC_ORIGIN);
    case 'open-platform':
      return new WechatOpenPlatformProvider({
        appId: required(env.WECHAT_APP_ID, 'WECHAT_APP_ID'),
        appSecret: required(env.WECHAT_APP_SECRET, 'WECHAT_APP_SECRET'),
        publicOrigin: env.PUBLIC_ORIGIN,
      });
  }
}

/** The QQ provider QQ_PROVIDER names. */
export function createQqProvider(env: OAuthEnv): QqProvider {
  switch (env.QQ_PROVIDER) {
    case 'dev':
      return new QqDevProvider(env.PUBLIC_ORIGIN);
    case 'qq-connect':
      return new QqConnectProvider({
        appId: required(env.QQ_APP_ID, 'QQ_APP_ID'),
        appKey: required(env.QQ_APP_KEY, 'QQ_APP_KEY'),
        publicOrigin: env.PUBLIC_ORIGIN,
      });
  }
}
