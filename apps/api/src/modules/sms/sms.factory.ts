import type { Env } from '../../env';
import { AliyunSmsProvider } from './aliyun.provider';
import { ConsoleSmsProvider, type SmsLogger } from './console.provider';
import type { SmsProvider } from './sms.provider';
import { TencentSmsProvider } from './tencent.provider';

/** A variable loadEnv has already required for the chosen provider. */
function required(value: string | undefined, name: string): string {
  if (value === undefined) throw new Error(`${name} is required when SMS_PROVIDER is not console`);
  return value;
}

/** The provider SMS_PROVIDER names, configured from the environment. */
export function createSmsProvider(env: Env, logger: SmsLogger): SmsProvider {
  switch (env.SMS_PROVIDER) {
    case 'console':
      return new ConsoleSmsProvider({ logger });
    case 'aliyun':
      return new AliyunSmsProvider({
        accessKeyId: required(env.ALIYUN_SMS_ACCESS_KEY_ID, 'ALIYUN_SMS_ACCESS_KEY_ID'),
        accessKeySecret: required(env.ALIYUN_SMS_ACCESS_KEY_SECRET, 'ALIYUN_SMS_ACCESS_KEY_SECRET'),
        signName: required(env.ALIYUN_SMS_SIGN_NAME, 'ALIYUN_SMS_SIGN_NAME'),
        templateCode: required(env.ALIYUN_SMS_TEMPLATE_CODE, 'ALIYUN_SMS_TEMPLATE_CODE'),
      });
    case 'tencent':
      return new TencentSmsProvider({
        secretId: required(env.TENCENT_SMS_SECRET_ID, 'TENCENT_SMS_SECRET_ID'),
        secretKey: required(env.TENCENT_SMS_SECRET_KEY, 'TENCENT_SMS_SECRET_KEY'),
        sdkAppId: required(env.TENCENT_SMS_SDK_APP_ID, 'TENCENT_SMS_SDK_APP_ID'),
        signName: required(env.TENCENT_SMS_SIGN_NAME, 'TENCENT_SMS_SIGN_NAME'),
        templateId: required(env.TENCENT_SMS_TEMPLATE_ID, 'TENCENT_SMS_TEMPLATE_ID'),
        region: env.TENCENT_SMS_REGION,
      });
  }
}
