import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../env';
import { createSmsProvider } from './sms.factory';

const logger = { info: () => undefined };

describe('createSmsProvider', () => {
  it('chooses the provider SMS_PROVIDER names, console by default', () => {
    expect(createSmsProvider(loadEnv({}), logger).name).toBe('console');
    const aliyun = loadEnv({
      SMS_PROVIDER: 'aliyun',
      ALIYUN_SMS_ACCESS_KEY_ID: 'id',
      ALIYUN_SMS_ACCESS_KEY_SECRET: 'secret',
      ALIYUN_SMS_SIGN_NAME: '迅捷CAD',
      ALIYUN_SMS_TEMPLATE_CODE: 'SMS_1',
    });
    expect(createSmsProvider(aliyun, logger).name).toBe('aliyun');
    const tencent = loadEnv({
      SMS_PROVIDER: 'tencent',
      TENCENT_SMS_SECRET_ID: 'id',
      TENCENT_SMS_SECRET_KEY: 'key',
      TENCENT_SMS_SDK_APP_ID: '1400000001',
      TENCENT_SMS_SIGN_NAME: '迅捷CAD',
      TENCENT_SMS_TEMPLATE_ID: '1',
    });
    expect(createSmsProvider(tencent, logger).name).toBe('tencent');
  });
});
