import { DEV_SIGN_SECRET } from '@xcad/protocol';
import { z } from 'zod';

// The web process's own configuration (the front server and next.config.ts), checked once at
// start-up with the API's rules and message style (apps/api/src/env.ts): a bad value stops the
// process with a list of every mistake instead of surfacing later as a strange page.

const port = z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65_535);
const count = z.coerce.number({ error: 'must be a whole number' }).int().min(0);

const ZWebEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  WEB_HOST: z.string().min(1).default('127.0.0.1'),
  WEB_PORT: port.default(3000),
  API_PORT: port.default(3001),
  // Where the front server streams /api, /wp-json and /health, and server-side renders call the API.
  API_ORIGIN: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  // Signs the browser's API calls (inlined by the build) and the server's own (spec §7).
  PRODUCT_SIGN_SECRET: z.string().min(8).optional(),
  SITE_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).default('http://localhost:3000'),
  // The front server's short cache of shared-cacheable pages (decision 0008); 0 turns it off.
  PAGE_CACHE_TTL_MS: count.default(10_000),
  PAGE_CACHE_MAX_ENTRIES: count.default(500),
  NEXT_DIST_DIR: z.string().min(1).default('.next'),
});

export type WebEnv = Omit<z.output<typeof ZWebEnv>, 'API_ORIGIN' | 'PRODUCT_SIGN_SECRET'> & {
  API_ORIGIN: string;
  PRODUCT_SIGN_SECRET: string;
};

export class WebEnvError extends Error {
  override readonly name = 'WebEnvError';
}

/**
 * Reads the web's configuration from `source` (default `process.env`); empty values count as unset.
 * Throws a `WebEnvError` listing every bad variable.
 */
export function loadWebEnv(source: Readonly<Record<string, string | undefined>> = process.env): WebEnv {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value.trim() !== ''));
  const result = ZWebEnv.safeParse(present);
  const problems = result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`);
  // The development secret ships in public code; a production server must have its own (as the API).
  if (present['NODE_ENV'] === 'production' && present['PRODUCT_SIGN_SECRET'] === undefined) {
    problems.push('PRODUCT_SIGN_SECRET: required when NODE_ENV=production');
  }
  if (!result.success || problems.length > 0) {
    throw new WebEnvError(`invalid environment:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
  return {
    ...result.data,
    API_ORIGIN: result.data.API_ORIGIN ?? `http://127.0.0.1:${result.data.API_PORT}`,
    PRODUCT_SIGN_SECRET: result.data.PRODUCT_SIGN_SECRET ?? DEV_SIGN_SECRET,
  };
}
