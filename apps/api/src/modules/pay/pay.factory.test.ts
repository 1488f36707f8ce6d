import { generateKeyPairSync } from 'node:crypto';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../env';
import { AlipayProvider } from './alipay.provider';
import { createPayProviders } from './pay.factory';
import { SandboxPayProvider } from './sandbox.provider';
import { WechatPayProvider } from './wechatpay.provider';

const log = pino({ level: 'silent' });

function rsaPems(): { privateKey: string; publicKey: string } {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
}

describe('createPayProviders', () => {
  it('lets the sandbox take both pay types by default, with its dev routes', () => {
    const { providers, sandbox } = createPayProviders(loadEnv({}), log);
    expect(sandbox).toBeInstanceOf(SandboxPayProvider);
    expect(providers.wxpay).toBe(sandbox);
    expect(providers.alipay).toBe(sandbox);
  });

  it('builds the real providers from their variables, the sandbox keeping the other pay type', () => {
    const merchant = rsaPems();
    const platform = rsaPems();
    const wechat = createPayProviders(
      loadEnv({
        WXPAY_PROVIDER: 'wechatpay',
        WECHATPAY_APPID: 'wx0000000000000000',
        WECHATPAY_MCHID: '1900000001',
        WECHATPAY_MCH_SERIAL_NO: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1',
        WECHATPAY_PRIVATE_KEY: merchant.privateKey.replace(/\n/g, '\\n'),
        WECHATPAY_APIV3_KEY: 'a'.repeat(32),
        WECHATPAY_PUBLIC_KEY: platform.publicKey,
        WECHATPAY_PUBLIC_KEY_ID: 'PUB_KEY_ID_0000000000000000000000000000',
      }),
      log,
    );
    expect(wechat.providers.wxpay).toBeInstanceOf(WechatPayProvider);
    expect(wechat.providers.alipay).toBe(wechat.sandbox);

    const both = createPayProviders(
      loadEnv({
        ALIPAY_PROVIDER: 'alipay',
        ALIPAY_APP_ID: '2021000000000000',
        ALIPAY_PRIVATE_KEY: merchant.privateKey,
        ALIPAY_PUBLIC_KEY: platform.publicKey,
      }),
      log,
    );
    expect(both.providers.alipay).toBeInstanceOf(AlipayProvider);
  });

  it('names the variable of an unreadable key, without printing the key', () => {
    const env = loadEnv({
      ALIPAY_PROVIDER: 'alipay',
      ALIPAY_APP_ID: '2021',
      ALIPAY_PRIVATE_KEY: 'not-a-key-secret-text',
      ALIPAY_PUBLIC_KEY: rsaPems().publicKey,
    });
    expect(() => createPayProviders(env, log)).toThrow(/^ALIPAY_PRIVATE_KEY: /);
    expect(() => createPayProviders(env, log)).not.toThrow(/not-a-key-secret-text/);
  });
});
