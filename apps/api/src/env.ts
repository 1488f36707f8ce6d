import { DEV_SIGN_SECRET } from '@xcad/protocol';
import { z } from 'zod';

// The API's whole configuration, checked once at start-up (ARCHITECTURE "Two ways to run").

export { DEV_SIGN_SECRET };

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const SMS_PROVIDERS = ['console', 'aliyun', 'tencent'] as const;
const WECHAT_PROVIDERS = ['dev', 'open-platform'] as const;
const QQ_PROVIDERS = ['dev', 'qq-connect'] as const;
const WXPAY_PROVIDERS = ['sandbox', 'wechatpay'] as const;
const ALIPAY_PROVIDERS = ['sandbox', 'alipay'] as const;
const STORAGE_PROVIDERS = ['local', 's3'] as const;
const LIMIT_STORES = ['redis', 'database'] as const;

/** `true`/`false`, or a comma list of trusted proxy addresses or CIDRs. */
type TrustProxy = boolean | string[];

const trustProxy = z
  .string()
  .trim()
  .min(1)
  .transform((value): TrustProxy => {
    if (value === 'true') return true;
    if (value === 'false') return false;
    return value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
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
  // Only proxies on this host by default: with `true` any client could pick its own address in
  // X-Forwarded-For and slip past the per-IP sign-in limits (decision 0010).
  TRUST_PROXY: trustProxy.default(['loopback']),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  // Decision 0010: console keeps codes in a dev outbox.
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
  // The public origin of the site (redirect URIs and QR links point here), e.g. https://www.example.com.
  PUBLIC_ORIGIN: z.url({ error: 'must be an absolute URL' }).default('http://127.0.0.1:3000'),
  // The web's canonical origin: with PUBLIC_ORIGIN, what tells a public deployment from a local
  // trial (decision 0026). A public one refuses the development providers unless
  // UNSAFE_DEV_PROVIDERS_AT names that very origin (a test host).
  SITE_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  UNSAFE_DEV_PROVIDERS_AT: z.url({ protocol: /^https?$/, error: 'must be the http:// or https:// origin of the deployment' }).optional(),
  // dev: /scanlogin/{logintag} confirms a QR login; open-platform: WeChat website QR login.
  WECHAT_PROVIDER: z.enum(WECHAT_PROVIDERS).default('dev'),
  WECHAT_APP_ID: z.string().min(1).optional(),
  WECHAT_APP_SECRET: z.string().min(1).optional(),
  // dev: a local authorisation popup; qq-connect: QQ Connect (graph.qq.com) OAuth 2.0.
  QQ_PROVIDER: z.enum(QQ_PROVIDERS).default('dev'),
  QQ_APP_ID: z.string().min(1).optional(),
  QQ_APP_KEY: z.string().min(1).optional(),
  // Decision 0012: where stored files live (content images and drawings, course videos, feedback
  // screenshots); a relative path is taken from the repository root.
  STORAGE_DIR: z.string().min(1).default('data/storage'),
  // Decision 0019: local keeps stored files under STORAGE_DIR; s3 puts them in a bucket of any
  // S3-compatible store (AWS S3, MinIO, OSS, COS), for more than one API host. S3_ENDPOINT for
  // anything but AWS; path-style addressing (bucket in the path) defaults on when it is set.
  STORAGE_PROVIDER: z.enum(STORAGE_PROVIDERS).default('local'),
  S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((value) => value === 'true')
    .optional(),
  // A folder of the bucket every key goes under (several sites sharing one bucket).
  S3_PREFIX: z
    .string()
    .refine(
      (value) =>
        value
          .replace(/^\/+|\/+$/g, '')
          .split('/')
          .every((segment) => /^[^\\\0]+$/.test(segment) && segment !== '.' && segment !== '..'),
      {
        error: "must name a folder of the bucket ('xcad' or 'sites/xcad')",
      },
    )
    .optional(),
  // Decision 0012: where the download pages' buttons send installers (the vendor's CDN); file names are appended.
  SOFTWARE_DOWNLOAD_BASE_URL: z.url({ error: 'must be an absolute URL' }).default('https://download.xunjiecad.com/soft/'),
  // Decision 0018: who takes WeChat Pay and Alipay orders. sandbox: the QR leads to the local cashier
  // /pay/sandbox/{orderno} (also POST /api/dev/pay/confirm); wechatpay / alipay: the real ones.
  WXPAY_PROVIDER: z.enum(WXPAY_PROVIDERS).default('sandbox'),
  ALIPAY_PROVIDER: z.enum(ALIPAY_PROVIDERS).default('sandbox'),
  WECHATPAY_APPID: z.string().min(1).optional(),
  WECHATPAY_MCHID: z.string().min(1).optional(),
  /** Serial number of the merchant's API certificate (the Authorization header's serial_no). */
  WECHATPAY_MCH_SERIAL_NO: z.string().min(1).optional(),
  /** The merchant's API private key: PEM text (\n escapes allowed) or a path to the PEM file. */
  WECHATPAY_PRIVATE_KEY: z.string().min(1).optional(),
  /** The 32-byte APIv3 key the notices' resource is encrypted with. */
  WECHATPAY_APIV3_KEY: z.string().length(32, { error: 'must be the 32-character APIv3 key' }).optional(),
  /** WeChat Pay's public key (PEM text or path) and its id (Wechatpay-Serial, PUB_KEY_ID_...). */
  WECHATPAY_PUBLIC_KEY: z.string().min(1).optional(),
  WECHATPAY_PUBLIC_KEY_ID: z.string().min(1).optional(),
  /**
   * Decision 0043: the AppSecret of the official account (公众号) whose AppID is WECHATPAY_APPID, for
   * the OAuth (snsapi_base) that gives a buyer's openid to JSAPI payments inside WeChat's browser.
   */
  WECHATPAY_MP_SECRET: z.string().min(1).optional(),
  WECHATPAY_API_BASE: z.url({ error: 'must be an absolute URL' }).default('https://api.mch.weixin.qq.com'),
  ALIPAY_APP_ID: z.string().min(1).optional(),
  /** The app's RSA2 private key: PEM text, a path, or the bare base64 Alipay's tool prints. */
  ALIPAY_PRIVATE_KEY: z.string().min(1).optional(),
  /** Alipay's public key (not the app's): PEM text, a path or bare base64. */
  ALIPAY_PUBLIC_KEY: z.string().min(1).optional(),
  ALIPAY_GATEWAY: z.url({ error: 'must be an absolute URL' }).default('https://openapi.alipay.com/gateway.do'),
  // Decision 0019: the conversion jobs (local: a database-backed queue run by the API process).
  // Conversions at once, the time and the resident memory one conversion may take (decision 0027: its
  // process and the processes it starts, capped by a watchdog; also its V8 heap limit; a loaded
  // engine alone holds about 100 MB), and how long uploads and results are kept.
  CONVERSION_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  CONVERSION_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(3600).default(180),
  CONVERSION_MEMORY_MB: z.coerce.number().int().min(256).max(16_384).default(1536),
  CONVERSION_RETENTION_HOURS: z.coerce
    .number()
    .min(0.01)
    .max(24 * 30)
    .default(24),
  // Decision 0019: who carries the conversion jobs. local: the database queue above, run by the API
  // process; bullmq: a Redis queue (BullMQ), run by `npm run worker` processes. The queue's name
  // lets several sites (or test runs) share one Redis; BullMQ refuses ':' in it.
  CONVERSION_QUEUE: z.enum(['local', 'bullmq']).default('local'),
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).default('redis://127.0.0.1:6379'),
  CONVERSION_QUEUE_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,100}$/, { error: 'letters, digits, _ . - only' })
    .default('xcad-conversion'),
  // Decision 0022: analytics events are kept this many days besides today (at least the 7 days an
  // event may be late), and the collector takes this many events a minute per client address and
  // per device id (at least one full batch of 50) before it answers 429.
  ANALYTICS_RETENTION_DAYS: z.coerce.number().int().min(7).max(3660).default(400),
  ANALYTICS_RATE_PER_MINUTE: z.coerce.number().int().min(50).max(10_000_000).default(600),
  ANALYTICS_DEVICE_RATE_PER_MINUTE: z.coerce.number().int().min(50).max(10_000_000).default(120),
  // Decision 0029: where the quotas and rate limits are counted, so that every API
  // process sees the same counts. redis: in REDIS_URL's Redis (the default with the bullmq queue,
  // which needs that Redis anyway); database: in the main database (the default otherwise).
  RATE_LIMIT_STORE: z.enum(LIMIT_STORES).optional(),
  // The limit store's keys go under this prefix in Redis (several sites can share one Redis).
  RATE_LIMIT_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,100}$/, { error: 'letters, digits, _ . : - only' })
    .default('xcad-limits'),
});

// The credentials each real SMS provider cannot send without.
const SMS_REQUIRED = {
  console: [],
  aliyun: ['ALIYUN_SMS_ACCESS_KEY_ID', 'ALIYUN_SMS_ACCESS_KEY_SECRET', 'ALIYUN_SMS_SIGN_NAME', 'ALIYUN_SMS_TEMPLATE_CODE'],
  tencent: [
    'TENCENT_SMS_SECRET_ID',
    'TENCENT_SMS_SECRET_KEY',
    'TENCENT_SMS_SDK_APP_ID',
    'TENCENT_SMS_SIGN_NAME',
    'TENCENT_SMS_TEMPLATE_ID',
  ],
} as const satisfies Record<(typeof SMS_PROVIDERS)[number], ReadonlyArray<keyof z.input<typeof ZEnv>>>;

const OAUTH_REQUIRED: ReadonlyArray<{
  variable: 'WECHAT_PROVIDER' | 'QQ_PROVIDER';
  value: string;
  needs: ReadonlyArray<keyof z.input<typeof ZEnv>>;
}> = [
  { variable: 'WECHAT_PROVIDER', value: 'open-platform', needs: ['WECHAT_APP_ID', 'WECHAT_APP_SECRET'] },
  { variable: 'QQ_PROVIDER', value: 'qq-connect', needs: ['QQ_APP_ID', 'QQ_APP_KEY'] },
];

// The credentials each real payment provider cannot take money without (decision 0018).
const PAY_REQUIRED: ReadonlyArray<{
  variable: 'WXPAY_PROVIDER' | 'ALIPAY_PROVIDER';
  value: string;
  needs: ReadonlyArray<keyof z.input<typeof ZEnv>>;
}> = [
  {
    variable: 'WXPAY_PROVIDER',
    value: 'wechatpay',
    needs: [
      'WECHATPAY_APPID',
      'WECHATPAY_MCHID',
      'WECHATPAY_MCH_SERIAL_NO',
      'WECHATPAY_PRIVATE_KEY',
      'WECHATPAY_APIV3_KEY',
      'WECHATPAY_PUBLIC_KEY',
      'WECHATPAY_PUBLIC_KEY_ID',
    ],
  },
  { variable: 'ALIPAY_PROVIDER', value: 'alipay', needs: ['ALIPAY_APP_ID', 'ALIPAY_PRIVATE_KEY', 'ALIPAY_PUBLIC_KEY'] },
];

// What the s3 storage provider cannot reach its bucket without (decision 0019).
const STORAGE_REQUIRED: ReadonlyArray<{ variable: 'STORAGE_PROVIDER'; value: string; needs: ReadonlyArray<keyof z.input<typeof ZEnv>> }> = [
  { variable: 'STORAGE_PROVIDER', value: 's3', needs: ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] },
];

export type Env = Omit<z.output<typeof ZEnv>, 'PRODUCT_SIGN_SECRET' | 'RATE_LIMIT_STORE'> & {
  PRODUCT_SIGN_SECRET: string;
  RATE_LIMIT_STORE: (typeof LIMIT_STORES)[number];
};

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
  const problems = result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`);
  // The development secret ships in public code; a production server must have its own.
  if (present['NODE_ENV'] === 'production' && present['PRODUCT_SIGN_SECRET'] === undefined) {
    problems.push('PRODUCT_SIGN_SECRET: required when NODE_ENV=production');
  }
  // Checked apart from the parse so one error lists missing credentials next to other mistakes.
  const smsProvider = SMS_PROVIDERS.find((name) => name === (present['SMS_PROVIDER'] ?? 'console'));
  for (const name of smsProvider === undefined ? [] : SMS_REQUIRED[smsProvider]) {
    if (present[name] === undefined) problems.push(`${name}: required when SMS_PROVIDER=${smsProvider}`);
  }
  for (const rule of [...OAUTH_REQUIRED, ...PAY_REQUIRED, ...STORAGE_REQUIRED]) {
    if (present[rule.variable] !== rule.value) continue;
    for (const name of rule.needs) {
      if (present[name] === undefined) problems.push(`${name}: required when ${rule.variable}=${rule.value}`);
    }
  }
  if (!result.success || problems.length > 0) {
    throw new EnvError(`invalid environment:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
  return {
    ...result.data,
    PRODUCT_SIGN_SECRET: result.data.PRODUCT_SIGN_SECRET ?? DEV_SIGN_SECRET,
    RATE_LIMIT_STORE: result.data.RATE_LIMIT_STORE ?? (result.data.CONVERSION_QUEUE === 'bullmq' ? 'redis' : 'database'),
  };
}
