import { describe, expect, it } from 'vitest';
import { loadEnv } from '../env';
import { devDoorsAtStart, isLoopbackAddress, isLoopbackHost } from './dev-doors';

// Decision 0026: whether the API may start with the development providers.

const REAL_PROVIDERS = {
  SMS_PROVIDER: 'aliyun',
  ALIYUN_SMS_ACCESS_KEY_ID: 'id',
  ALIYUN_SMS_ACCESS_KEY_SECRET: 'secret',
  ALIYUN_SMS_SIGN_NAME: '迅捷CAD',
  ALIYUN_SMS_TEMPLATE_CODE: 'SMS_1',
  WECHAT_PROVIDER: 'open-platform',
  WECHAT_APP_ID: 'wx1',
  WECHAT_APP_SECRET: 'secret',
  QQ_PROVIDER: 'qq-connect',
  QQ_APP_ID: '1',
  QQ_APP_KEY: 'key',
  WXPAY_PROVIDER: 'wechatpay',
  WECHATPAY_APPID: 'wx1',
  WECHATPAY_MCHID: '1',
  WECHATPAY_MCH_SERIAL_NO: 'serial',
  WECHATPAY_PRIVATE_KEY: 'key',
  WECHATPAY_APIV3_KEY: '0123456789abcdef0123456789abcdef',
  WECHATPAY_PUBLIC_KEY: 'key',
  WECHATPAY_PUBLIC_KEY_ID: 'PUB_KEY_ID_1',
  ALIPAY_PROVIDER: 'alipay',
  ALIPAY_APP_ID: '1',
  ALIPAY_PRIVATE_KEY: 'key',
  ALIPAY_PUBLIC_KEY: 'key',
};

const atStart = (variables: NodeJS.ProcessEnv) => devDoorsAtStart(loadEnv(variables));

describe('devDoorsAtStart', () => {
  it('lets the local trial start with every development provider (npm start, browser tests, desktop)', () => {
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:41234', 'http://[::1]:3000', 'http://xcad.localhost']) {
      expect(atStart({ SITE_URL: origin, PUBLIC_ORIGIN: origin }).kind, origin).toBe('local');
    }
    expect(atStart({}).kind).toBe('local');
  });

  it('refuses a public origin with the development defaults, naming each provider and the way out', () => {
    const decision = atStart({ SITE_URL: 'https://www.xunjiecad.com', PUBLIC_ORIGIN: 'https://www.xunjiecad.com' });
    expect(decision).toEqual({
      kind: 'refused',
      message:
        'development providers at the public origin https://www.xunjiecad.com: SMS_PROVIDER=console, WECHAT_PROVIDER=dev, QQ_PROVIDER=dev, WXPAY_PROVIDER=sandbox, ALIPAY_PROVIDER=sandbox; configure the real providers (see the README) or, for a test host only, set UNSAFE_DEV_PROVIDERS_AT=https://www.xunjiecad.com',
    });
  });

  it('counts either origin: a public SITE_URL or a public PUBLIC_ORIGIN (a LAN address too)', () => {
    expect(atStart({ SITE_URL: 'https://www.xunjiecad.com' }).kind).toBe('refused');
    expect(atStart({ SITE_URL: 'http://localhost:3000', PUBLIC_ORIGIN: 'http://192.168.1.20:3000' }).kind).toBe('refused');
  });

  it('names the one development provider left among real ones', () => {
    const decision = atStart({ ...REAL_PROVIDERS, ALIPAY_PROVIDER: 'sandbox', SITE_URL: 'https://www.xunjiecad.com' });
    expect(decision.kind).toBe('refused');
    expect(decision.kind === 'refused' && decision.message).toMatch(/: ALIPAY_PROVIDER=sandbox; /);
  });

  it('starts a public origin with the real providers', () => {
    expect(atStart({ ...REAL_PROVIDERS, SITE_URL: 'https://www.xunjiecad.com', PUBLIC_ORIGIN: 'https://www.xunjiecad.com' }).kind).toBe(
      'closed',
    );
  });

  it('starts a test host whose operator named its very origin, and only that one', () => {
    const staging = { SITE_URL: 'https://staging.xunjiecad.com', PUBLIC_ORIGIN: 'https://staging.xunjiecad.com/' };
    expect(atStart({ ...staging, UNSAFE_DEV_PROVIDERS_AT: 'https://staging.xunjiecad.com' }).kind).toBe('overridden');
    // A settings file copied to production keeps its override: it names the wrong origin.
    const copied = atStart({ SITE_URL: 'https://www.xunjiecad.com', UNSAFE_DEV_PROVIDERS_AT: 'https://staging.xunjiecad.com' });
    expect(copied.kind).toBe('refused');
    expect(copied.kind === 'refused' && copied.message).toContain(
      'UNSAFE_DEV_PROVIDERS_AT names https://staging.xunjiecad.com, not https://www.xunjiecad.com',
    );
  });
});

describe('loopback names and addresses', () => {
  it('knows this machine from every other', () => {
    expect(
      ['localhost', 'LOCALHOST.', 'app.localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1', '[::ffff:7f00:1]'].filter(
        (host) => !isLoopbackHost(host),
      ),
    ).toEqual([]);
    expect(
      ['www.xunjiecad.com', 'localhost.example.com', '10.0.0.1', '[::]', '0.0.0.0', '[2001:db8::1]', 'example.localhost.com'].filter(
        isLoopbackHost,
      ),
    ).toEqual([]);
    expect(['127.0.0.1', '::1', '::ffff:127.0.0.1'].every(isLoopbackAddress)).toBe(true);
    expect(['10.200.0.1', '::ffff:10.0.0.1', 'localhost', ''].some(isLoopbackAddress)).toBe(false);
  });
});
