// The business constants and limits of spec §9 (plus the few timings §2 and §4 state elsewhere),
// in one module so the web, the API, the desktop shell and tests read the same numbers.

/** The software this site speaks for in signed calls (spec §9). */
export const PRODUCT = {
  id: 211,
  version: '5.0',
  softname: 'xunjiecadeditor',
} as const;

/** Request headers of every product API call and health check (spec §7). */
export const HEADERS = {
  product: 'X-Product',
  domain: 'X-Domain',
  /** Response header a mirror's `/health` answers with. */
  machineId: 'machine-id',
} as const;

/** Value of the `X-Product` header (spec §7). */
export const X_PRODUCT = '141';

/** A mirror is accepted only when its `machine-id` header carries this value (spec §7). */
export const MACHINE_ID = '20-201';

/** Keys of the local membership state, one per product (spec §3). */
export type ProductKey = 'bianjiqi' | 'bianjiqipro' | 'zhuanhuanqi' | 'jiaocheng' | 'gongjuxiang' | 'tuku';

export interface ProductInfo {
  readonly id: number;
  readonly key: ProductKey;
  readonly name: string;
}

// spec §6: the six products whose membership is queried after login. Spec §3 names five internal
// keys for five products; the editor pro (214) has none there, so `bianjiqipro` is ours.
// The Chinese names are ours too: spec §1 and §6 name the products in English only.
export const PRODUCTS = [
  { id: 211, key: 'bianjiqi', name: '迅捷CAD编辑器' },
  { id: 214, key: 'bianjiqipro', name: '迅捷CAD编辑器专业版' },
  { id: 202, key: 'zhuanhuanqi', name: '迅捷CAD转换器' },
  { id: 297, key: 'jiaocheng', name: '迅捷CAD教程' },
  { id: 204, key: 'gongjuxiang', name: '迅捷CAD工具箱' },
  { id: 203, key: 'tuku', name: '迅捷CAD图库' },
] as const satisfies readonly ProductInfo[];

export type ProductId = (typeof PRODUCTS)[number]['id'];

export const PRODUCT_IDS: readonly ProductId[] = PRODUCTS.map((product) => product.id);

export function productById(id: number): ProductInfo | undefined {
  return PRODUCTS.find((product) => product.id === id);
}

export interface PayPackage {
  /** Our stable name for the package. */
  readonly id: 'lifetime' | 'year' | 'month';
  /** The vendor's package id sent when ordering. */
  readonly realId: number;
  readonly name: string;
  /** Price in yuan. */
  readonly price: number;
  /** Length of the membership; `null` for lifetime. */
  readonly months: number | null;
}

// spec §9: prices and realIds. Names are ours: the spec shows none.
export const PAY_PACKAGES = [
  { id: 'lifetime', realId: 305, name: '终身会员', price: 88, months: null },
  { id: 'year', realId: 304, name: '12个月会员', price: 68, months: 12 },
  { id: 'month', realId: 532, name: '1个月会员', price: 48, months: 1 },
] as const satisfies readonly PayPackage[];

/** Lengths and limits of the login and registration forms (spec §5, §9). */
export const FORM_LIMITS = {
  phoneLength: 11,
  smsCodeLength: 4,
  accountMaxLength: 30,
  passwordMinLength: 6,
  passwordMaxLength: 20,
  imageCodeMaxLength: 4,
} as const;

/** Seconds before another SMS code may be requested (spec §4, §9). */
export const SMS_RESEND_WAIT_SECONDS = 60;

/** Defaults of the image captcha requested from imgverify (spec §9). */
export const CAPTCHA_DEFAULTS = {
  width: 90,
  height: 40,
  fontSize: 16,
  length: 4,
} as const;

/** Network timings (spec §9). */
export const TIMINGS = {
  httpTimeoutMs: 60_000,
  taskPollIntervalMs: 2_000,
  wechatPollIntervalMs: 1_000,
  wechatSessionCacheSeconds: 60,
  healthTimeoutMs: 1_000,
} as const;

/** Login-modal delays (spec §4). */
export const LOGIN_FLOW_DELAYS = {
  /** After setting a password: success view, then automatic account login. */
  autoLoginAfterSetPasswordMs: 3_000,
  /** After registering: automatic account login. */
  autoLoginAfterRegisterMs: 1_000,
  /** SMS login of a user without a password: 'phone not registered' shown this long. */
  notRegisteredNoticeMs: 3_000,
} as const;

/** Conversion upload parameters (spec §7, §9). */
export const UPLOAD = {
  /** Chunk size of `/api/v4/uploadfile`. */
  conversionChunkBytes: 50 * 1024 * 1024,
  /** Chunk size of the second upload client (`/api/file/upload`). */
  fileChunkBytes: 2 * 1024 * 1024,
  /** `limitsize` sent with uploadpar. */
  limitsize: 51_200,
  /** `isshare` sent with uploadpar. */
  isshare: 0,
  /** `downtype` sent with taskdown. */
  downtype: 2,
} as const;

/** Membership rules (spec §4, §6, §9). */
export const MEMBERSHIP = {
  /** More remaining seconds than this count as lifelong (about 10 years). */
  lifelongThresholdSeconds: 315_360_000,
  /** Differences between server and client clocks below this are ignored. */
  clockSkewToleranceSeconds: 60,
} as const;

/** The three membership levels (spec §3, §6). */
export const MEMBERSHIP_LEVELS = {
  ordinary: '普通用户',
  premium: '高级会员',
  expired: '会员已过期',
} as const;

export type MembershipLevel = (typeof MEMBERSHIP_LEVELS)[keyof typeof MEMBERSHIP_LEVELS];

/** Page-level guards and redirects (spec §2, §4, §9). */
export const PAGE = {
  /** A chunk-load error reloads the page at most once in this window. */
  reloadGuardMs: 60_000,
  /** The 404 page counts down this long, then goes to `/`. */
  notFoundRedirectSeconds: 60,
  /** Status of the root path's locale redirect. */
  rootRedirectStatus: 302,
  /** Local-storage key of the device id. */
  deviceIdStorageKey: '_g_uuid',
} as const;

/** Toasts last `baseMs` plus `perCharMs` per character (spec §2, §9). */
export const TOAST = {
  baseMs: 1_000,
  perCharMs: 200,
} as const;

/** Loading bar: runs 0 to 100 percent over `durationMs`, updates throttled (spec §9). */
export const LOADING_BAR = {
  durationMs: 5_000,
  throttleMs: 200,
} as const;

/** Layout thresholds (spec §2, §9). */
export const LAYOUT = {
  footerGuideCount: 6,
  backToTopShowAfterPx: 200,
  backToTopAnimationMs: 1_000,
  sideBarShowAfterPx: 80,
  menuHoverHideDelayMs: 500,
} as const;

/** Root font size rule: 100 px above `designWidthPx`, else proportional (spec §9). */
export const ROOT_FONT = {
  designWidthPx: 750,
  maxFontSizePx: 100,
} as const;

/** Viewport meta: initial and maximum scale (spec §9). */
export const VIEWPORT = {
  initialScale: 1,
  maximumScale: 1,
} as const;

/** Lifetime of the language cookie (spec §9). */
export const LANGUAGE_COOKIE_DAYS = 365;

export type CarouselTrigger = 'hover' | 'click';
export type CarouselDirection = 'horizontal' | 'vertical';
export type CarouselArrow = 'always' | 'hover' | 'never';

export interface CarouselOptions {
  readonly autoplay: boolean;
  readonly intervalMs: number;
  readonly initialIndex: number;
  readonly trigger: CarouselTrigger;
  readonly loop: boolean;
  readonly direction: CarouselDirection;
  readonly arrow: CarouselArrow;
  readonly throttleMs: number;
}

/** Carousel widget defaults (spec §9). */
export const CAROUSEL_DEFAULTS: CarouselOptions = {
  autoplay: true,
  intervalMs: 3_000,
  initialIndex: 0,
  trigger: 'hover',
  loop: true,
  direction: 'horizontal',
  arrow: 'hover',
  throttleMs: 300,
};

/** Text helper lengths in characters (spec §9). */
export const TEXT_LIMITS = {
  short: 12,
  long: 80,
  ellipsis: '...',
} as const;

export interface PopupSize {
  readonly width: number;
  readonly height: number;
}

/** Popup windows and fixed boxes (spec §1, §2). */
export const POPUPS = {
  qqLogin: { width: 720, height: 650 },
  humanChat: { width: 620, height: 700 },
  weixinCallbackBox: { width: 183, height: 183 },
} as const satisfies Record<string, PopupSize>;

/** Platforms the analytics software info may report (spec §3). */
export const ANALYTICS_PLATFORMS = ['WEB', 'WIN', 'MAC', 'IPHONE', 'IPAD', 'ANDROID', 'LINUX', 'OTHER'] as const;
export type AnalyticsPlatform = (typeof ANALYTICS_PLATFORMS)[number];

/** `logintype` of the local user (spec §3). */
export const LOGIN_TYPES = {
  phoneOrAccount: '0',
  socialUnbound: '1',
  socialBound: '2',
} as const;

/** How long a toast stays: 1000 ms plus 200 ms per character, counted by code point (spec §2). */
export function toastDurationMs(text: string): number {
  return TOAST.baseMs + TOAST.perCharMs * Array.from(text).length;
}

/** spec §9: root font size is 100 px above 750 px of viewport width, else width / 750 * 100. */
export function rootFontSizePx(viewportWidth: number): number {
  if (viewportWidth > ROOT_FONT.designWidthPx) return ROOT_FONT.maxFontSizePx;
  return (viewportWidth / ROOT_FONT.designWidthPx) * ROOT_FONT.maxFontSizePx;
}
