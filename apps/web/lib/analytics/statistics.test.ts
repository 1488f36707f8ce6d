import { afterEach, describe, expect, it, vi } from 'vitest';
import { analyticsClientConfig } from './site-config';
import { parseStatisticsSiteId, statisticsScriptSrc } from './statistics';

// spec §7: the statistics script when a Baidu Tongji site id is configured, none by default; and
// the deployment facts the tracker reads (decision 0022).

const ID = '0123456789abcdef0123456789ABCDEF';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('statistics script', () => {
  it('is none by default', () => {
    expect(parseStatisticsSiteId(undefined)).toEqual({ kind: 'none' });
    expect(parseStatisticsSiteId('  ')).toEqual({ kind: 'none' });
    expect(analyticsClientConfig({ NODE_ENV: 'production' }).statisticsSiteId).toBeNull();
  });

  it('loads hm.js with the configured site id', () => {
    const config = analyticsClientConfig({ NODE_ENV: 'production', BAIDU_TONGJI_ID: ` ${ID} ` });
    expect(config.statisticsSiteId).toBe(ID.toLowerCase());
    expect(statisticsScriptSrc(config.statisticsSiteId!)).toBe(`https://hm.baidu.com/hm.js?${ID.toLowerCase()}`);
  });

  it('refuses a value that is not a site id, with a warning, and adds no script', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(parseStatisticsSiteId('"><script>alert(1)</script>')).toMatchObject({ kind: 'invalid' });
    expect(analyticsClientConfig({ BAIDU_TONGJI_ID: 'hm.js?abc' }).statisticsSiteId).toBeNull();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('BAIDU_TONGJI_ID'));
  });
});

describe('deployment facts', () => {
  it('takes the production host from SITE_URL and the test host from SITE_ENVIRONMENT', () => {
    expect(analyticsClientConfig({ SITE_URL: 'https://www.xunjiecad.com/', NODE_ENV: 'production' }).site).toEqual({
      siteUrl: 'https://www.xunjiecad.com',
      isTestDeployment: false,
      isDevelopment: false,
    });
    expect(analyticsClientConfig({ SITE_ENVIRONMENT: 'Test', NODE_ENV: 'production' }).site.isTestDeployment).toBe(true);
    expect(analyticsClientConfig({ NODE_ENV: 'development' }).site.isDevelopment).toBe(true);
  });
});
