import { z } from 'zod';

// The API's whole configuration, checked once at start-up (ARCHITECTURE "Two ways to run").

export const DEV_SIGN_SECRET = 'xcad-dev-sign-secret-141';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const SMS_PROVIDERS = ['console', 'aliyun', 'tencent'] as const;

/** `true`/`false`, or a comma list of trusted proxy addresses or CIDRs. */
export type TrustProxy = boolean | string[];

const trustProxy = z
  .string()
  .trim()
  .min(1)
  .transform((value): TrustProxy => {
    if (value === 'true') return true;
    if (value === 'false') return false;
    return value.split(',').map((entry) => entry.trim()).filter(Boolean);
  });

const port = z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65_535);

const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  API_HOST: z.string().min(1).default('127.0.0.1'),
  API_PORT: port.default(3001),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }).optional(),
  SQLITE_PATH: z.string().min(1).optional(),
  PRODUCT_SIGN_SECRET: z.string().min(8).optional(),
  SIGN_WINDOW_SECONDS: z.coerce.number().int().min(30).max(3600).default(300),
  MACHINE_ID: z.string().min(1).max(64).default('20-201'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  TRUST_PROXY: trustProxy.default(true),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  // Issue 3 "Providers behind interfaces": console keeps codes in a dev outbox.
  SMS_PROVIDER: z.enum(SMS_PROVIDERS).default('console'),
  ALIYUN_SMS_ACCESS_KEY_ID: z.string().min(1).optional(),
  ALIYUN_SMS_ACCESS_KEY_SECRET: z.string().min(1).optional(),
  ALIYUN_SMS_SIGN_NAME: z.string().min(1).optional(),
  ALIYUN_SMS_TEMPLATE_CODE: z.string().min(1).optional(),
  TENCENT_SMS_SECRET_ID: z.string().min(1).optional(),
  TENCENT_SMS_SECRET_KEY: z.string().min(1).optional(),
  TENCENT_SMS_SDK_APP_ID: z.string().min(1).optional(),
  TENCENT_SMS_SIGN_NAME: z.string().min(1).optional(),
  TENCENT_SMS_TEMPLATE_ID: z.string().min(1).optional(),
  TENCENT_SMS_REGION: z.string().min(1).default('ap-guangzhou'),
});

// The credentials each real SMS provider cannot send without.
const SMS_REQUIRED = {
  console: [],
  aliyun: ['ALIYUN_SMS_ACCESS_KEY_ID', 'ALIYUN_SMS_ACCESS_KEY_SECRET', 'ALIYUN_SMS_SIGN_NAME', 'ALIYUN_SMS_TEMPLATE_CODE'],
  tencent: ['TENCENT_SMS_SECRET_ID', 'TENCENT_SMS_SECRET_KEY', 'TENCENT_SMS_SDK_APP_ID', 'TENCENT_SMS_SIGN_NAME', 'TENCENT_SMS_TEMPLATE_ID'],
} as const satisfies Record<(typeof SMS_PROVIDERS)[number], ReadonlyArray<keyof z.input<typeof ZEnv>>>;

export type Env = Omit<z.output<typeof ZEnv>, 'PRODUCT_SIGN_SECRET'> & { PRODUCT_SIGN_SECRET: string };

export class EnvError extends Error {
  override readonly name = 'EnvError';
}

/**
 * Reads the configuration from `source` (default `process.env`); empty values count as unset.
 * Throws an `EnvError` listing every bad variable.
 */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value.trim() !== ''));
  const result = ZEnv.safeParse(present);
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`);
  // The development secret ships in public code; a production server must have its own.
  if (present['NODE_ENV'] === 'production' && present['PRODUCT_SIGN_SECRET'] === undefined) {
    problems.push('PRODUCT_SIGN_SECRET: required when NODE_ENV=production');
  }
  // Checked apart from the parse so one error lists missing credentials next to other mistakes.
  const smsProvider = SMS_PROVIDERS.find((name) => name === (present['SMS_PROVIDER'] ?? 'console'));
  for (const name of smsProvider === undefined ? [] : SMS_REQUIRED[smsProvider]) {
    if (present[name] === undefined) problems.push(`${name}: required when SMS_PROVIDER=${smsProvider}`);
  }
  if (!result.success || problems.length > 0) {
    throw new EnvError(`invalid environment:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
  return { ...result.data, PRODUCT_SIGN_SECRET: result.data.PRODUCT_SIGN_SECRET ?? DEV_SIGN_SECRET };
}
