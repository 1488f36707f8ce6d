import { SITE_URL } from '@/lib/site-url';
import type { SiteIdentity } from './context';
import { parseStatisticsSiteId } from './statistics';

// What the page's tracker learns from the server, read when a page is rendered (static pages at
// build and regeneration time, like SITE_URL and the SITE_* settings):
// - SITE_URL: its host name is the production host (analytics version 'online');
// - SITE_ENVIRONMENT=test: this whole deployment is the test host ('test', debug mode allowed);
// - BAIDU_TONGJI_ID: the Baidu Tongji site id of the statistics script (none when unset).

export interface AnalyticsClientConfig {
  readonly site: SiteIdentity;
  readonly statisticsSiteId: string | null;
}

let warnedValue: string | null = null;

export function analyticsClientConfig(env: Readonly<Record<string, string | undefined>> = process.env): AnalyticsClientConfig {
  const statistics = parseStatisticsSiteId(env.BAIDU_TONGJI_ID);
  if (statistics.kind === 'invalid' && warnedValue !== statistics.value) {
    warnedValue = statistics.value;
    console.warn(
      `[web] BAIDU_TONGJI_ID "${statistics.value}" is not a Baidu Tongji site id (32 hexadecimal characters); no statistics script is added`,
    );
  }
  return {
    site: {
      siteUrl: env.SITE_URL ? env.SITE_URL.replace(/\/+$/, '') : SITE_URL,
      isTestDeployment: env.SITE_ENVIRONMENT?.trim().toLowerCase() === 'test',
      isDevelopment: env.NODE_ENV === 'development',
    },
    statisticsSiteId: statistics.kind === 'valid' ? statistics.id : null,
  };
}
