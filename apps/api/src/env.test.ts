import { describe, expect, it } from 'vitest';
import { DEV_SIGN_SECRET, EnvError, loadEnv } from './env';

describe('loadEnv', () => {
  it('gives the embedded defaults for an empty environment', () => {
    expect(loadEnv({})).toEqual({
      NODE_ENV: 'development',
      API_HOST: '127.0.0.1',
      API_PORT: 3001,
      PRODUCT_SIGN_SECRET: DEV_SIGN_SECRET,
      SIGN_WINDOW_SECONDS: 300,
      MACHINE_ID: '20-201',
      LOG_LEVEL: 'info',
      TRUST_PROXY: ['loopback'],
      BODY_LIMIT_BYTES: 1_048_576,
      SMS_PROVIDER: 'console',
      SOFTWARE_DOWNLOAD_BASE_URL: 'https://download.xunjiecad.com/soft/',
      STORAGE_DIR: 'data/storage',
      STORAGE_PROVIDER: 'local',
      S3_REGION: 'us-east-1',
      TENCENT_SMS_REGION: 'ap-guangzhou',
      PUBLIC_ORIGIN: 'http://127.0.0.1:3000',
      WECHAT_PROVIDER: 'dev',
      QQ_PROVIDER: 'dev',
      WXPAY_PROVIDER: 'sandbox',
      ALIPAY_PROVIDER: 'sandbox',
      WECHATPAY_API_BASE: 'https://api.mch.weixin.qq.com',
      ALIPAY_GATEWAY: 'https://openapi.alipay.com/gateway.do',
      CONVERSION_CONCURRENCY: 1,
      CONVERSION_TIMEOUT_SECONDS: 180,
      CONVERSION_MEMORY_MB: 1536,
      CONVERSION_RETENTION_HOURS: 24,
      CONVERSION_QUEUE: 'local',
      REDIS_URL: 'redis://127.0.0.1:6379',
      CONVERSION_QUEUE_NAME: 'xcad-conversion',
      ANALYTICS_RETENTION_DAYS: 400,
      ANALYTICS_RATE_PER_MINUTE: 600,
      ANALYTICS_DEVICE_RATE_PER_MINUTE: 120,
      RATE_LIMIT_STORE: 'database',
      RATE_LIMIT_PREFIX: 'xcad-limits',
    });
    expect(DEV_SIGN_SECRET).toBe('xcad-dev-sign-secret-141');
  });

  it('reads every variable and treats empty ones as unset', () => {
    const env = loadEnv({
      NODE_ENV: 'production',
      API_HOST: '0.0.0.0',
      API_PORT: '8080',
      DATABASE_URL: 'postgres://xcad@db.internal:5432/xcad',
      SQLITE_PATH: '',
      PRODUCT_SIGN_SECRET: 'a-long-production-secret',
      SIGN_WINDOW_SECONDS: '120',
      MACHINE_ID: '20-202',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: '127.0.0.1, 10.0.0.0/8',
      BODY_LIMIT_BYTES: '65536',
    });
    expect(env).toMatchObject({
      API_PORT: 8080,
      DATABASE_URL: 'postgres://xcad@db.internal:5432/xcad',
      SIGN_WINDOW_SECONDS: 120,
      TRUST_PROXY: ['127.0.0.1', '10.0.0.0/8'],
      BODY_LIMIT_BYTES: 65_536,
    });
    expect(env.SQLITE_PATH).toBeUndefined();
    expect(loadEnv({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
  });

  it('requires PRODUCT_SIGN_SECRET in production', () => {
    expect(() => loadEnv({ NODE_ENV: 'production' })).toThrow(/PRODUCT_SIGN_SECRET: required when NODE_ENV=production/);
  });

  it('takes the BullMQ conversion queue with its Redis and refuses what BullMQ would not', () => {
    expect(
      loadEnv({ CONVERSION_QUEUE: 'bullmq', REDIS_URL: 'rediss://:pw@redis.internal:6380/2', CONVERSION_QUEUE_NAME: 'site-b.conversion' }),
    ).toMatchObject({
      CONVERSION_QUEUE: 'bullmq',
      REDIS_URL: 'rediss://:pw@redis.internal:6380/2',
      CONVERSION_QUEUE_NAME: 'site-b.conversion',
    });
    expect(() => loadEnv({ CONVERSION_QUEUE: 'sqs' })).toThrow('- CONVERSION_QUEUE:');
    expect(() => loadEnv({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow('- REDIS_URL:');
    expect(() => loadEnv({ CONVERSION_QUEUE_NAME: 'a:b' })).toThrow('- CONVERSION_QUEUE_NAME:');
  });

  it('counts the limits in Redis when the bullmq queue brings one, in the database otherwise, unless told', () => {
    expect(loadEnv({}).RATE_LIMIT_STORE).toBe('database');
    expect(loadEnv({ CONVERSION_QUEUE: 'bullmq' }).RATE_LIMIT_STORE).toBe('redis');
    expect(loadEnv({ CONVERSION_QUEUE: 'bullmq', RATE_LIMIT_STORE: 'database' }).RATE_LIMIT_STORE).toBe('database');
    expect(loadEnv({ RATE_LIMIT_STORE: 'redis', RATE_LIMIT_PREFIX: 'site-b:limits' })).toMatchObject({
      RATE_LIMIT_STORE: 'redis',
      RATE_LIMIT_PREFIX: 'site-b:limits',
    });
    expect(() => loadEnv({ RATE_LIMIT_STORE: 'memory' })).toThrow('- RATE_LIMIT_STORE:');
    expect(() => loadEnv({ RATE_LIMIT_PREFIX: 'a b' })).toThrow('- RATE_LIMIT_PREFIX:');
  });

  it('takes an S3-compatible bucket for storage and names what the s3 provider is missing', () => {
    expect(
      loadEnv({
        STORAGE_PROVIDER: 's3',
        S3_ENDPOINT: 'https://oss-cn-hangzhou.aliyuncs.com',
        S3_REGION: 'oss-cn-hangzhou',
        S3_BUCKET: 'xcad-files',
        S3_ACCESS_KEY_ID: 'AKID',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'false',
        S3_PREFIX: 'sites/xcad',
      }),
    ).toMatchObject({
      STORAGE_PROVIDER: 's3',
      S3_REGION: 'oss-cn-hangzhou',
      S3_BUCKET: 'xcad-files',
      S3_FORCE_PATH_STYLE: false,
      S3_PREFIX: 'sites/xcad',
    });
    expect(loadEnv({ S3_FORCE_PATH_STYLE: 'true' }).S3_FORCE_PATH_STYLE).toBe(true);
    expect(loadEnv({ S3_BUCKET: 'unused-while-local' }).STORAGE_PROVIDER).toBe('local');

    let error: unknown;
    try {
      loadEnv({ STORAGE_PROVIDER: 's3', S3_BUCKET: 'xcad-files' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EnvError);
    expect(String(error)).toContain('S3_ACCESS_KEY_ID: required when STORAGE_PROVIDER=s3');
    expect(String(error)).toContain('S3_SECRET_ACCESS_KEY: required when STORAGE_PROVIDER=s3');
    expect(String(error)).not.toContain('S3_BUCKET');
    expect(() => loadEnv({ STORAGE_PROVIDER: 'oss' })).toThrow('- STORAGE_PROVIDER:');
    expect(() => loadEnv({ S3_ENDPOINT: 'minio:9000' })).toThrow('- S3_ENDPOINT:');
    expect(() => loadEnv({ S3_FORCE_PATH_STYLE: 'yes' })).toThrow('- S3_FORCE_PATH_STYLE:');
    expect(() => loadEnv({ S3_PREFIX: 'sites/../other' })).toThrow('- S3_PREFIX:');
  });

  it('takes the analytics retention and limits, and refuses values the collector could not honour', () => {
    expect(
      loadEnv({ ANALYTICS_RETENTION_DAYS: '30', ANALYTICS_RATE_PER_MINUTE: '6000', ANALYTICS_DEVICE_RATE_PER_MINUTE: '300' }),
    ).toMatchObject({
      ANALYTICS_RETENTION_DAYS: 30,
      ANALYTICS_RATE_PER_MINUTE: 6000,
      ANALYTICS_DEVICE_RATE_PER_MINUTE: 300,
    });
    // Shorter than the 7 days an event may arrive late; smaller than one full batch of 50.
    expect(() => loadEnv({ ANALYTICS_RETENTION_DAYS: '6' })).toThrow('- ANALYTICS_RETENTION_DAYS:');
    expect(() => loadEnv({ ANALYTICS_RATE_PER_MINUTE: '49' })).toThrow('- ANALYTICS_RATE_PER_MINUTE:');
    expect(() => loadEnv({ ANALYTICS_DEVICE_RATE_PER_MINUTE: 'many' })).toThrow('- ANALYTICS_DEVICE_RATE_PER_MINUTE:');
  });

  it('lists every bad variable in one error', () => {
    let error: unknown;
    try {
      loadEnv({ NODE_ENV: 'production', API_PORT: 'http', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x@y/z', SIGN_WINDOW_SECONDS: '-5' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EnvError);
    const message = (error as EnvError).message;
    for (const name of ['API_PORT', 'LOG_LEVEL', 'DATABASE_URL', 'SIGN_WINDOW_SECONDS', 'PRODUCT_SIGN_SECRET'])
      expect(message).toContain(`- ${name}:`);
  });

  describe('SMS provider', () => {
    const aliyun = {
      SMS_PROVIDER: 'aliyun',
      ALIYUN_SMS_ACCESS_KEY_ID: 'LTAI-id',
      ALIYUN_SMS_ACCESS_KEY_SECRET: 'secret',
      ALIYUN_SMS_SIGN_NAME: '迅捷CAD',
      ALIYUN_SMS_TEMPLATE_CODE: 'SMS_000001',
    };
    const tencent = {
      SMS_PROVIDER: 'tencent',
      TENCENT_SMS_SECRET_ID: 'AKID-id',
      TENCENT_SMS_SECRET_KEY: 'key',
      TENCENT_SMS_SDK_APP_ID: '1400000001',
      TENCENT_SMS_SIGN_NAME: '迅捷CAD',
      TENCENT_SMS_TEMPLATE_ID: '100001',
    };

    it('needs no credentials for the console provider', () => {
      expect(loadEnv({ SMS_PROVIDER: 'console' }).SMS_PROVIDER).toBe('console');
    });

    it('requires every Aliyun credential when SMS_PROVIDER=aliyun', () => {
      expect(loadEnv(aliyun)).toMatchObject(aliyun);
      for (const name of Object.keys(aliyun).filter((key) => key !== 'SMS_PROVIDER')) {
        expect(() => loadEnv({ ...aliyun, [name]: '' })).toThrow(`- ${name}: required when SMS_PROVIDER=aliyun`);
      }
    });

    it('requires every Tencent credential when SMS_PROVIDER=tencent, with the Guangzhou region by default', () => {
      expect(loadEnv(tencent)).toMatchObject({ ...tencent, TENCENT_SMS_REGION: 'ap-guangzhou' });
      expect(loadEnv({ ...tencent, TENCENT_SMS_REGION: 'ap-beijing' }).TENCENT_SMS_REGION).toBe('ap-beijing');
      for (const name of Object.keys(tencent).filter((key) => key !== 'SMS_PROVIDER')) {
        expect(() => loadEnv({ ...tencent, [name]: undefined })).toThrow(`- ${name}: required when SMS_PROVIDER=tencent`);
      }
    });

    it('refuses an unknown provider and lists missing credentials beside other mistakes', () => {
      expect(() => loadEnv({ SMS_PROVIDER: 'twilio' })).toThrow(/- SMS_PROVIDER:/);
      let error: unknown;
      try {
        loadEnv({ SMS_PROVIDER: 'aliyun', API_PORT: 'http' });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(EnvError);
      expect((error as EnvError).message).toContain('- API_PORT:');
      expect((error as EnvError).message).toContain('- ALIYUN_SMS_ACCESS_KEY_ID: required when SMS_PROVIDER=aliyun');
    });
  });

  describe('sign-in providers', () => {
    it('needs the WeChat Open Platform app only with WECHAT_PROVIDER=open-platform', () => {
      expect(() => loadEnv({ WECHAT_PROVIDER: 'open-platform' })).toThrow('- WECHAT_APP_ID: required when WECHAT_PROVIDER=open-platform');
      expect(() => loadEnv({ WECHAT_PROVIDER: 'open-platform', WECHAT_APP_ID: 'wx1' })).toThrow(
        '- WECHAT_APP_SECRET: required when WECHAT_PROVIDER=open-platform',
      );
      const env = loadEnv({ WECHAT_PROVIDER: 'open-platform', WECHAT_APP_ID: 'wx1', WECHAT_APP_SECRET: 's' });
      expect(env.WECHAT_PROVIDER).toBe('open-platform');
    });

    it('needs the QQ Connect app only with QQ_PROVIDER=qq-connect', () => {
      expect(() => loadEnv({ QQ_PROVIDER: 'qq-connect', QQ_APP_ID: '101' })).toThrow('- QQ_APP_KEY: required when QQ_PROVIDER=qq-connect');
      expect(loadEnv({ QQ_PROVIDER: 'qq-connect', QQ_APP_ID: '101', QQ_APP_KEY: 'k' }).QQ_PROVIDER).toBe('qq-connect');
      expect(() => loadEnv({ QQ_PROVIDER: 'weibo' })).toThrow(/- QQ_PROVIDER:/);
    });

    it('needs the merchant credentials only with a real payment provider', () => {
      expect(() => loadEnv({ WXPAY_PROVIDER: 'wechatpay', WECHATPAY_APPID: 'wx1' })).toThrow(
        '- WECHATPAY_MCHID: required when WXPAY_PROVIDER=wechatpay',
      );
      expect(() => loadEnv({ ALIPAY_PROVIDER: 'alipay' })).toThrow('- ALIPAY_PRIVATE_KEY: required when ALIPAY_PROVIDER=alipay');
      expect(() => loadEnv({ WECHATPAY_APIV3_KEY: 'short' })).toThrow(/- WECHATPAY_APIV3_KEY: must be the 32-character APIv3 key/);
      expect(() => loadEnv({ WXPAY_PROVIDER: 'paypal' })).toThrow(/- WXPAY_PROVIDER:/);
      expect(
        loadEnv({ ALIPAY_PROVIDER: 'alipay', ALIPAY_APP_ID: '2021', ALIPAY_PRIVATE_KEY: 'k', ALIPAY_PUBLIC_KEY: 'p' }).ALIPAY_PROVIDER,
      ).toBe('alipay');
    });

    it('refuses a PUBLIC_ORIGIN that is not an absolute URL', () => {
      expect(() => loadEnv({ PUBLIC_ORIGIN: 'www.example.com' })).toThrow(/- PUBLIC_ORIGIN: must be an absolute URL/);
    });
  });
});
