import { z } from 'zod';
import { CAPTCHA_DEFAULTS, FORM_LIMITS } from './constants';
import { successOf } from './envelope';
import { isCleanLine, zLine } from './input';
import { PASSWORD_FORM_ERROR, PASSWORD_FORM_MESSAGES, SMS_FORM_ERROR, SMS_FORM_MESSAGES, type CodeGroup } from './errors';
import { VALIDATION_MESSAGES, ZAccount, ZImageCode, ZLoginPassword, ZPassword, ZPhone, ZSmsCode } from './validation';

// Accounts and sign-in (decision 0010): the request and response schemas of every auth endpoint, the
// codes the spec does not give, and the limits the server enforces. The web forms and the API
// validate with these same schemas (spec §5 messages come from validation.ts).

/** spec §3: logintype '0' phone/account, '1' WeChat or QQ unbound, '2' WeChat or QQ with a bound mobile. */
export const ZLoginType = z.enum(['0', '1', '2']);
export type TLoginType = z.infer<typeof ZLoginType>;

const numeric = z.union([z.number(), z.string().regex(/^-?\d+$/)]).transform(Number);

/** A membership entry of `vip[]`: product id and expiry (`auth_value`, epoch seconds). */
export const ZVipEntry = z.looseObject({
  productid: numeric,
  auth_value: numeric,
});
export type TVipEntry = z.infer<typeof ZVipEntry>;

/** spec §3 User, as the server sends it. `vip` and `nowtime` come when the request set `showvip`. */
export const ZUserInfo = z.looseObject({
  uid: z.string(),
  username: z.string(),
  nickname: z.string(),
  head_portrait: z.string(),
  usertoken: z.string(),
  /** The file-service token (the second upload client's X-Auth-Token). */
  token: z.string(),
  /** The bound mobile number, '' when none. */
  bindmobile: z.string(),
  logintype: ZLoginType,
  /** 1 when the account has a password; 0 after a first SMS sign-up (spec §4). */
  ispwd: z.union([z.literal(0), z.literal(1)]),
  vip: z.array(ZVipEntry).optional(),
  nowtime: z.number().int().optional(),
});
export type TUserInfo = z.infer<typeof ZUserInfo>;

/** `showvip`: 1/0, '1'/'0' or a boolean on the wire. */
const ZFlag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['0', '1', 'true', 'false', ''])])
  .transform((value) => value === true || value === 1 || value === '1' || value === 'true');

/** What signed-in calls carry: the account (username or mobile) and the session's usertoken. */
export const ZSignedIn = z.object({
  account: zLine(64).optional(),
  /** Optional only because the web's SSR calls authenticate with the HttpOnly cookie instead. */
  usertoken: zLine(128).optional(),
});

export const SMS_VERIFY_TYPES = ['quicklogin', 'register', 'forgetpwd', 'bindmobile'] as const;
export const ZSmsVerifyType = z.enum(SMS_VERIFY_TYPES, { error: '验证类型错误' });
export type TSmsVerifyType = z.infer<typeof ZSmsVerifyType>;

/** Empty text reads as 'not given' (form bodies send empty fields). */
function optionalText<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === '' || value === null ? undefined : value), schema.optional());
}

const PHONE_EMPTY = SMS_FORM_MESSAGES[SMS_FORM_ERROR.emptyPhone];
const ACCOUNT_EMPTY = PASSWORD_FORM_MESSAGES[PASSWORD_FORM_ERROR.emptyPhone];

/** spec §5: an empty phone has its own message; a filled one must be a valid phone. */
export const ZRequiredPhone = z.string({ error: PHONE_EMPTY }).min(1, { error: PHONE_EMPTY, abort: true }).pipe(ZPhone);

export const LOGIN_PROVIDERS = ['wechat', 'qq'] as const;

export const ZWechatGuidRequest = z.object({
  seriesid: zLine(64).optional(),
  /** Ours: 'qq' opens a popup sign-in that completes through the same logintag and wechatstate. */
  provider: z.enum(LOGIN_PROVIDERS).default('wechat'),
});
export const ZWechatGuidResponse = successOf({
  logintag: z.string(),
  /**
   * wechat + qrtype 'link': a URL the modal draws as a QR code (dev provider: /scanlogin/{logintag});
   * wechat + qrtype 'iframe': WeChat's qrconnect page, shown in a 183x183-scaled frame that ends on
   * /weixin-login-callback; qq: the URL the 720x650 popup opens.
   */
  qrurl: z.string(),
  qrtype: z.enum(['link', 'iframe', 'popup']),
  /** Seconds the logintag stays valid on the server. */
  expiresin: z.number().int(),
});

export const ZWechatStateRequest = z.object({
  logintag: z
    .string({ error: '登录标识无效' })
    .min(8, { error: '登录标识无效' })
    .max(64, { error: '登录标识无效' })
    .refine(isCleanLine, { error: '登录标识无效' }),
  showvip: ZFlag.optional(),
});
export const ZWechatStateResponse = successOf({ userinfo: ZUserInfo });

export const ZImgVerifyRequest = z.object({
  width: numeric.pipe(z.number().int().min(60).max(300)).default(CAPTCHA_DEFAULTS.width),
  height: numeric.pipe(z.number().int().min(20).max(120)).default(CAPTCHA_DEFAULTS.height),
  fontsize: numeric.pipe(z.number().int().min(10).max(48)).default(CAPTCHA_DEFAULTS.fontSize),
  // The image-code field takes at most FORM_LIMITS.imageCodeMaxLength characters (spec §5), so no
  // longer captcha could ever be answered.
  length: numeric.pipe(z.number().int().min(CAPTCHA_DEFAULTS.length).max(FORM_LIMITS.imageCodeMaxLength)).default(CAPTCHA_DEFAULTS.length),
});
/** spec §7: the captcha image travels in `message`, as a `data:image/png;base64,…` URL. */
export const ZImgVerifyResponse = successOf({ message: z.string().startsWith('data:image/') });

export const ZSmsVerifyRequest = z.object({
  account: ZRequiredPhone,
  verifytype: ZSmsVerifyType,
  imgcode: optionalText(ZImageCode),
});
/** 10000 when sent; refusals are envelopes (SMS_SEND_ERRORS), 10061 ones with `retryafter`. */
export const ZSmsVerifyResponse = successOf({});

export const ZLoginQuickRequest = z.object({
  account: ZRequiredPhone,
  smscode: ZSmsCode,
  imgcode: optionalText(ZImageCode),
  showvip: ZFlag.optional(),
});
export const ZSafLoginQuickRequest = z.object({
  account: ZRequiredPhone,
  smscode: ZSmsCode,
  showvip: ZFlag.optional(),
});
export const ZLoginResponse = successOf({ userinfo: ZUserInfo });

export const ZLoginRequest = z.object({
  account: z.string({ error: ACCOUNT_EMPTY }).min(1, { error: ACCOUNT_EMPTY, abort: true }).pipe(ZAccount),
  password: ZLoginPassword,
  showvip: ZFlag.optional(),
});

export const ZSafRegisterRequest = z.object({
  account: ZRequiredPhone,
  smscode: ZSmsCode,
  password: ZPassword,
});
export const ZEmptyResponse = successOf({});

export const ZSetPwdRequest = ZSignedIn.extend({ password: ZPassword });
export const ZChangePwdRequest = ZSignedIn.extend({
  oldpassword: z.string({ error: '请输入原密码' }).min(1, { error: '请输入原密码' }).max(20, { error: '原密码错误' }),
  password: ZPassword,
});
/** The password changed: every session was revoked and this one replaced (new tokens). */
export const ZChangePwdResponse = successOf({ userinfo: ZUserInfo });

export const NICKNAME_MAX_LENGTH = 20;
export const ZNickname = z
  .string({ error: '请输入昵称' })
  .transform((text) => text.trim())
  .pipe(
    z
      .string()
      .min(1, { error: '请输入昵称' })
      .refine((text) => Array.from(text).length <= NICKNAME_MAX_LENGTH, { error: `昵称不能超过${NICKNAME_MAX_LENGTH}个字符` })
      // No control characters or markup-looking text in a name shown across the site.
      .refine((text) => !/[\p{Cc}<>]/u.test(text), { error: '昵称包含不支持的字符' }),
  );
export const ZChangeNickRequest = ZSignedIn.extend({ nickname: ZNickname });
export const ZChangeNickResponse = successOf({ userinfo: ZUserInfo });

/** Binds a mobile to a WeChat/QQ account (logintype '1' -> '2'); the code comes from verifytype 'bindmobile'. */
export const ZBindAccountRequest = ZSignedIn.extend({
  mobile: ZRequiredPhone,
  smscode: ZSmsCode,
});
export const ZBindAccountResponse = successOf({ userinfo: ZUserInfo });

export const ZMemProfileRequest = ZSignedIn.extend({ showvip: ZFlag.optional() });
export const ZMemProfileResponse = successOf({
  userinfo: ZUserInfo.extend({
    /** Registration time, epoch seconds. */
    regtime: z.number().int(),
    /** Sign-in methods linked to the account. */
    bindwechat: z.boolean(),
    bindqq: z.boolean(),
  }),
});

/** Ours: /weixin-login-callback hands WeChat's `code` and `state` to the server to finish a QR login. */
export const ZWechatCallbackRequest = z.object({
  logintag: zLine(64).min(8),
  code: zLine(512).min(1),
  state: zLine(128).min(1),
});

export type TWechatGuidResponse = z.infer<typeof ZWechatGuidResponse>;
export type TLoginResponse = z.infer<typeof ZLoginResponse>;
export type TMemProfileResponse = z.infer<typeof ZMemProfileResponse>;

/** Codes of sign-in the spec does not give (all ours; docs/decisions/0010). */
export const AUTH_ERRORS = {
  /** A field failed its spec §5 rule; the message is the rule's own, `field` names the field. */
  invalidField: { codes: [10020], message: VALIDATION_MESSAGES.phone },
  /** No, expired or revoked usertoken. */
  notSignedIn: { codes: [10060], message: '登录已失效，请重新登录' },
  /** The one-hour lock after repeated wrong passwords or codes (spec §5 message 10). */
  locked: { codes: [10062], message: '操作频繁，请1小时后再试' },
  /** Password checks of this account (or address) already under way fill the limit; retry in a second. */
  attemptsInFlight: { codes: [10064], message: '登录请求过于频繁，请稍后再试' },
  wrongOldPassword: { codes: [12002], message: '原密码错误' },
  passwordAlreadySet: { codes: [12003], message: '已设置过密码，请使用修改密码' },
  alreadyBound: { codes: [19008], message: '该账号已绑定手机号' },
  /** wechatstate: the QR has not been scanned yet. */
  qrPending: { codes: [19005], message: '请使用微信扫描二维码登录' },
  /** wechatstate: scanned, waiting for the phone's confirmation. */
  qrScanned: { codes: [19006], message: '扫码成功，请在手机上确认登录' },
  /** wechatstate: the logintag expired or is unknown; get a new QR. */
  qrExpired: { codes: [19007], message: '二维码已失效，请刷新' },
  /** The WeChat/QQ provider refused or failed. */
  providerFailed: { codes: [19009], message: '第三方登录失败，请重试' },
} as const satisfies Record<string, CodeGroup>;

/** Limits the server enforces on sign-in (decision 0010); the 60 s resend wait is spec §9's. */
export const AUTH_LIMITS = {
  smsResendSeconds: 60,
  smsCodeTtlSeconds: 300,
  smsPerPhonePerHour: 5,
  smsPerIpPerHour: 20,
  /** Above this many sends from one IP in an hour, an image captcha is demanded. */
  captchaAfterIpSendsPerHour: 3,
  /** A device asking codes for more than this many phones in an hour must answer a captcha. */
  captchaAfterDevicePhonesPerHour: 1,
  captchaTtlSeconds: 300,
  /** Wrong passwords per account, or wrong codes per phone, within the window before the lock. */
  failuresBeforeLock: 5,
  failureWindowSeconds: 900,
  lockSeconds: 3_600,
  sessionTtlSeconds: 30 * 24 * 3_600,
  loginSessionTtlSeconds: 300,
} as const;

/** The HttpOnly cookie that carries the usertoken to SSR pages. */
export const SESSION_COOKIE = 'xcad_session';

export type TSignedInFields = z.infer<typeof ZSignedIn>;
