import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../env';
import { AlipayProvider } from './alipay.provider';
import { loadPem } from './pay-keys';
import type { PayProviders } from './pay.provider';
import { SandboxPayProvider } from './sandbox.provider';
import { WechatPayProvider } from './wechatpay.provider';

// Decision 0018: which provider takes each pay type, from WXPAY_PROVIDER and ALIPAY_PROVIDER (env.ts
// checks that a real one has its credentials). The sandbox stands in for whichever is not real.

export interface ConfiguredPayProviders {
  providers: PayProviders;
  /** Present while either pay type uses the sandbox: the dev cashier routes exist only then. */
  sandbox: SandboxPayProvider | null;
}

function required(value: string | undefined, name: string): string {
  if (value === undefined) throw new Error(`${name} is required`);
  return value;
}

/** A key from the environment; a bad one fails start-up naming its variable (never its value). */
function pemOf(value: string | undefined, name: string, kind: 'private' | 'public'): string {
  try {
    return loadPem(required(value, name), kind);
  } catch (error) {
    throw new Error(`${name}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

export function createPayProviders(env: Env, log: FastifyBaseLogger): ConfiguredPayProviders {
  const needsSandbox = env.WXPAY_PROVIDER === 'sandbox' || env.ALIPAY_PROVIDER === 'sandbox';
  const sandbox = needsSandbox ? new SandboxPayProvider(env.PUBLIC_ORIGIN) : null;
  const wxpay =
    env.WXPAY_PROVIDER === 'wechatpay'
      ? new WechatPayProvider({
          appid: required(env.WECHATPAY_APPID, 'WECHATPAY_APPID'),
          mchid: required(env.WECHATPAY_MCHID, 'WECHATPAY_MCHID'),
          mchSerialNo: required(env.WECHATPAY_MCH_SERIAL_NO, 'WECHATPAY_MCH_SERIAL_NO'),
          privateKeyPem: pemOf(env.WECHATPAY_PRIVATE_KEY, 'WECHATPAY_PRIVATE_KEY', 'private'),
          apiV3Key: required(env.WECHATPAY_APIV3_KEY, 'WECHATPAY_APIV3_KEY'),
          platformPublicKeyPem: pemOf(env.WECHATPAY_PUBLIC_KEY, 'WECHATPAY_PUBLIC_KEY', 'public'),
          platformPublicKeyId: required(env.WECHATPAY_PUBLIC_KEY_ID, 'WECHATPAY_PUBLIC_KEY_ID'),
          apiBase: env.WECHATPAY_API_BASE,
        })
      : sandbox;
  const alipay =
    env.ALIPAY_PROVIDER === 'alipay'
      ? new AlipayProvider({
          appId: required(env.ALIPAY_APP_ID, 'ALIPAY_APP_ID'),
          privateKeyPem: pemOf(env.ALIPAY_PRIVATE_KEY, 'ALIPAY_PRIVATE_KEY', 'private'),
          alipayPublicKeyPem: pemOf(env.ALIPAY_PUBLIC_KEY, 'ALIPAY_PUBLIC_KEY', 'public'),
          gateway: env.ALIPAY_GATEWAY,
        })
      : sandbox;
  if (wxpay === null || alipay === null) throw new Error('unreachable: a pay type without a provider');
  if (sandbox) log.info({ wxpay: wxpay.name, alipay: alipay.name }, 'payments: the sandbox cashier takes orders (no money moves)');
  return { providers: { wxpay, alipay }, sandbox };
}
