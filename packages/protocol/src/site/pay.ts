import { z } from 'zod';
import { ZSignedIn, ZVipEntry } from '../auth';
import { defineEndpoint, type Endpoint } from '../endpoint';
import { successOf } from '../envelope';
import type { CodeGroup } from '../errors';
import { INPUT_MESSAGES, isCleanLine, zId } from '../input';
import { EMAIL_PATTERN } from '../validation';

// Decision 0018: memberships and purchase. The spec (§3, §7, §9) names memrole, memorder, paymerge and
// payorderstatedetails and the pay package's fields (id, realId, name, price, priceOri, paypack);
// it shows neither their payloads nor the catalogue, order list and invoice calls, so those
// shapes, codes and messages are ours (decision 0018). One set of schemas serves the web's forms
// and the API's parsing, so a refusal names the same field with the same words either side.

/** How a member pays (spec: WeChat Pay or Alipay, by QR). */
export const PAY_TYPES = ['wxpay', 'alipay'] as const;
export type TPayType = (typeof PAY_TYPES)[number];

/**
 * Where the cashier runs (decision 0043), which decides how it pays: a desktop shows QR codes
 * (WeChat Native, Alipay precreate); a phone browser opens the payment app (WeChat Pay H5, Alipay
 * WAP); WeChat's own browser pays in place (WeChat JSAPI), and there Alipay cannot be used.
 */
export const PAY_SCENES = ['desktop', 'mobile', 'wechat'] as const;
export type TPayScene = (typeof PAY_SCENES)[number];

export const ORDER_STATES = ['unpaid', 'paid', 'closed'] as const;
export type TOrderState = (typeof ORDER_STATES)[number];

/** `paypack`: the length a package grants. */
export const PAY_PACKS = ['month', 'quarter', 'year', 'lifetime'] as const;
export type TPayPack = (typeof PAY_PACKS)[number];

export const PAY_LIMITS = {
  /**
   * An unpaid order closes this long after it was placed, here and at the provider (decision 0043:
   * two hours, WeChat Native's own code_url lifetime; a phone buyer may leave for the app and back).
   */
  orderTtlSeconds: 2 * 3_600,
  /** Re-opening the cashier reuses the open order of the same checkout while this much time is left. */
  reuseMinSeconds: 10 * 60,
  /** How often each API process closes the orders that ran out (and closes them at the providers). */
  expirySweepSeconds: 60,
  /** The cashier asks for the order's state this often (spec §9's poll interval of tasks). */
  cashierPollMs: 2_000,
  /** Unpaid orders one user may have open at once; older ones are closed when a new one is placed. */
  openOrdersPerUser: 10,
  /** Packages one `paymerge` may combine. */
  mergeMaxPackages: 6,
  /** While an order is unpaid the server asks the provider itself at most this often (a lost notice). */
  providerQueryIntervalSeconds: 5,
  /** Lifetime memberships expire this many years on (well past spec §4's 315,360,000 s). */
  lifetimeYears: 99,
} as const;

/**
 * Order numbers: XC, the Beijing date and time to the second (14 digits), 8 random digits. 24
 * characters fits WeChat Pay's out_trade_no (<= 32) and Alipay's; the random part makes them
 * unguessable enough that a number seen in a URL does not reveal the neighbours.
 */
export const ORDER_NO_PATTERN = /^XC\d{22}$/;
export const ZPayOrderNo = z.string({ error: '订单号不能为空' }).trim().regex(ORDER_NO_PATTERN, { error: '订单号格式不正确' });

// ---------------------------------------------------------------------------------------------
// Codes and messages (ours: the spec shows none for purchase)

export const PAY_MESSAGES = {
  payType: '请选择支付方式',
  packageUnknown: '该套餐不存在或已下架，请刷新页面后重新选择',
  productMismatch: '套餐与产品不匹配，请刷新页面后重新选择',
  mergeEmpty: '请至少选择一个套餐',
  mergeTooMany: `一次最多合并购买${PAY_LIMITS.mergeMaxPackages}个套餐`,
  mergeDuplicate: '同一产品只能选择一个套餐',
  orderUnknown: '订单不存在',
  providerFailed: '支付下单失败，请稍后重试或更换支付方式',
  orderClosed: '订单已关闭，请重新下单',
  scene: '支付环境不正确，请刷新页面后重试',
  alipayInWechat: '微信内无法使用支付宝，请点击右上角“…”选择“在浏览器打开”后付款',
  wechatAuth: '请先在微信中授权，再继续支付',
  refundNotPaid: '只有已支付的订单才能退款',
  refundTooLarge: '退款金额超过该订单可退金额',
  refundNoReused: '该退款单号已用于另一笔退款',
  refundNo: '退款单号应为1-64位字母、数字或_-|*@',
  refundAmount: '请填写正确的退款金额',
  refundReason: '请填写退款原因（不超过80个字）',
} as const;

export const INVOICE_MESSAGES = {
  orderNo: '请选择要开票的订单',
  titleType: '请选择抬头类型',
  titleEmpty: '请填写发票抬头',
  titleTooLong: '发票抬头不能超过100个字',
  companyTitleTooShort: '企业抬头请填写完整的单位名称',
  taxNoEmpty: '企业抬头请填写纳税人识别号',
  taxNoInvalid: '纳税人识别号应为15、18或20位数字或大写字母',
  emailEmpty: '请填写接收电子发票的邮箱',
  emailInvalid: '请填写正确的邮箱地址',
  addressTooLong: '注册地址不能超过100个字',
  phoneInvalid: '请填写正确的注册电话（座机或手机号）',
  bankTooLong: '开户银行不能超过50个字',
  bankAccountInvalid: '请填写正确的银行账号（8-30位数字）',
  orderNotPaid: '只有已支付的订单才能申请发票',
  alreadyApplied: '该订单已申请过发票，请勿重复提交',
} as const;

/** Refusals of the pay and invoice calls (codes ours, in a range the spec leaves free). */
export const PAY_ERRORS = {
  /** A field broke its rule; `field` names it (decision 0010's 10020). */
  invalidField: { codes: [10020], message: PAY_MESSAGES.payType },
  packageUnknown: { codes: [17001], message: PAY_MESSAGES.packageUnknown },
  orderUnknown: { codes: [17002], message: PAY_MESSAGES.orderUnknown },
  /** The provider refused or could not be reached; nothing was charged, the order is closed. */
  providerFailed: { codes: [17003], message: PAY_MESSAGES.providerFailed },
  /** Alipay asked for inside WeChat's browser (decision 0043): the page shows the open-in-browser guide. */
  alipayInWechat: { codes: [17004], message: PAY_MESSAGES.alipayInWechat },
  /** JSAPI without the buyer's openid: the page goes through WeChat's OAuth (`authurl`) first. */
  wechatAuth: { codes: [17005], message: PAY_MESSAGES.wechatAuth },
  invoiceNotPaid: { codes: [17010], message: INVOICE_MESSAGES.orderNotPaid },
  /** Decision 0043, refunds (the operator's console): an order not paid, more than is left, a refund number reused. */
  refundNotPaid: { codes: [17020], message: PAY_MESSAGES.refundNotPaid },
  refundTooLarge: { codes: [17021], message: PAY_MESSAGES.refundTooLarge },
  refundNoReused: { codes: [17022], message: PAY_MESSAGES.refundNoReused },
  /** The provider refused the refund (nothing moved) or could not be asked (asked again later). */
  refundFailed: { codes: [17023], message: PAY_MESSAGES.providerFailed },
  invoiceExists: { codes: [17011], message: INVOICE_MESSAGES.alreadyApplied },
} as const satisfies Record<string, CodeGroup>;

// ---------------------------------------------------------------------------------------------
// The catalogue

/** spec §3 "Pay package", prices in yuan on the wire (the database keeps fen). */
export const ZPayPackage = z.object({
  /** Our stable name, e.g. `editor-year`. */
  id: z.string(),
  /** The vendor's package id sent when ordering (spec §9: 305, 304, 532 for the editor). */
  realId: z.number().int(),
  productid: z.number().int(),
  name: z.string(),
  price: z.number(),
  /** The crossed-out original price. */
  priceOri: z.number(),
  paypack: z.enum(PAY_PACKS),
  /** Months granted; null for lifetime. */
  months: z.number().int().nullable(),
  /** Which buy page sells it: the PC software or the phone app (cadconverterapp). */
  channel: z.enum(['pc', 'app']),
  /** The package the buy page preselects and marks 推荐. */
  recommended: z.boolean(),
});
export type TPayPackage = z.infer<typeof ZPayPackage>;

/** A bundle sold through paymerge: several packages for one price. */
export const ZPayBundle = z.object({
  id: z.string(),
  realId: z.number().int(),
  name: z.string(),
  price: z.number(),
  priceOri: z.number(),
  /** The realIds of the packages it combines. */
  packages: z.array(z.number().int()),
});
export type TPayBundle = z.infer<typeof ZPayBundle>;

export const ZPayProduct = z.object({
  productid: z.number().int(),
  name: z.string(),
  packages: z.array(ZPayPackage),
});
export type TPayProduct = z.infer<typeof ZPayProduct>;

/** The whole catalogue (small); `productid` is not a filter here: every signed body carries the client's own. */
export const ZPayCatalogueRequest = z.object({});
export const ZPayCatalogueResponse = successOf({ products: z.array(ZPayProduct), bundles: z.array(ZPayBundle) });
export type TPayCatalogueResponse = z.infer<typeof ZPayCatalogueResponse>;

// ---------------------------------------------------------------------------------------------
// memrole (spec §7): one product's membership

export const ZMemRoleRequest = ZSignedIn.extend({ productid: zId() });
export const ZMemRoleResponse = successOf({
  userinfo: z.looseObject({ nowtime: z.number().int(), vip: z.array(ZVipEntry) }),
});
export type TMemRoleResponse = z.infer<typeof ZMemRoleResponse>;

// ---------------------------------------------------------------------------------------------
// Orders

const ZPayTypeField = z.enum(PAY_TYPES, { error: PAY_MESSAGES.payType });
/** Absent: a desktop (every client before decision 0043 showed QR codes). */
const ZPaySceneField = z.enum(PAY_SCENES, { error: PAY_MESSAGES.scene }).default('desktop');
const ZRealId = zId(PAY_MESSAGES.packageUnknown);

/** memorder: one package of one product. The amount is the server's; a client cannot name one. */
export const ZMemOrderRequest = ZSignedIn.extend({
  productid: zId(PAY_MESSAGES.packageUnknown),
  /** The package's realId. */
  packageid: ZRealId,
  paytype: ZPayTypeField,
  scene: ZPaySceneField,
});

/** `packageids`: an array, or a comma list as form bodies send it. */
const ZPackageIds = z
  .union([z.array(z.union([z.number(), z.string()])), z.string()], { error: PAY_MESSAGES.mergeEmpty })
  .transform((value): unknown[] => (Array.isArray(value) ? value : value.split(',').filter((part) => part.trim() !== '')))
  .pipe(z.array(ZRealId).min(1, { error: PAY_MESSAGES.mergeEmpty }).max(PAY_LIMITS.mergeMaxPackages, { error: PAY_MESSAGES.mergeTooMany }));

/** paymerge: several packages in one order (a bundle's price when they make one). */
export const ZPayMergeRequest = ZSignedIn.extend({ packageids: ZPackageIds, paytype: ZPayTypeField, scene: ZPaySceneField });

/**
 * What WeixinJSBridge's getBrandWCPayRequest (or wx.chooseWXPay) takes, signed by the server:
 * paySign is SHA256withRSA over appId, timeStamp, nonceStr and package, one per line.
 */
export const ZJsapiParams = z.object({
  appId: z.string(),
  timeStamp: z.string(),
  nonceStr: z.string(),
  package: z.string(),
  signType: z.literal('RSA'),
  paySign: z.string(),
});
export type TJsapiParams = z.infer<typeof ZJsapiParams>;

export const ZOrderCreated = successOf({
  orderno: z.string(),
  /**
   * desktop: what the cashier's QR encodes (the sandbox cashier URL, WeChat's code_url or Alipay's
   * qr_code); mobile: where the page goes to open the payment app (WeChat's h5_url with its
   * redirect_url, Alipay's signed wap.pay URL); wechat: the sandbox's stand-in for the JSAPI sheet, or ''.
   */
  payurl: z.string(),
  scene: z.enum(PAY_SCENES),
  /** JSAPI (scene wechat with WeChat Pay): what WeixinJSBridge is handed. */
  jsapi: ZJsapiParams.nullable(),
  /** Yuan, as the server computed it. */
  amount: z.number(),
  paytype: z.enum(PAY_TYPES),
  /** Epoch seconds after which the order closes. */
  expiretime: z.number().int(),
});
export type TOrderCreated = z.infer<typeof ZOrderCreated>;

export const ZOrderItem = z.object({
  productid: z.number().int(),
  productname: z.string(),
  realId: z.number().int(),
  name: z.string(),
  paypack: z.enum(PAY_PACKS),
  price: z.number(),
});
export type TOrderItem = z.infer<typeof ZOrderItem>;

/** An order as the cashier and the purchase records show it. */
export const ZOrderDetails = z.object({
  orderno: z.string(),
  state: z.enum(ORDER_STATES),
  /** Yuan. */
  amount: z.number(),
  paytype: z.enum(PAY_TYPES),
  /** What the order buys in one line, e.g. 迅捷CAD编辑器 12个月会员. */
  subject: z.string(),
  items: z.array(ZOrderItem),
  /** Epoch seconds. */
  createtime: z.number().int(),
  expiretime: z.number().int(),
  /** Epoch seconds; null until paid. */
  paidtime: z.number().int().nullable(),
  /** The provider's transaction id once paid. */
  transactionid: z.string().nullable(),
  /** The invoice applied for on this order, if any. */
  invoice: z.enum(['none', 'submitted', 'issued']),
  /** Decision 0043: yuan given back so far (0: none); equal to `amount` when fully refunded (已退款). */
  refund: z.number(),
});
export type TOrderDetails = z.infer<typeof ZOrderDetails>;

/**
 * What payorderstatedetails tells anyone but the order's buyer (decision 0029): the state a
 * cashier waits on, nothing that tells who bought what or how the payment went.
 */
export const ZOrderPublicState = ZOrderDetails.pick({ orderno: true, state: true });
export type TOrderPublicState = z.infer<typeof ZOrderPublicState>;

/** The buyer's answer carries the order's details (`items` among them); anyone else's only the state. */
export function isOrderDetails(answer: TOrderDetails | TOrderPublicState): answer is TOrderDetails {
  return 'items' in answer;
}

/**
 * payorderstatedetails: polled by the cashier. Anyone holding the order number may ask; the buyer
 * (signed in, by usertoken or session cookie) gets the order's details, anyone else its state.
 */
export const ZPayOrderStateRequest = ZSignedIn.extend({ orderno: ZPayOrderNo });
export const ZPayOrderStateResponse = z.union([successOf({ ...ZOrderDetails.shape }), successOf({ ...ZOrderPublicState.shape })]);
export type TPayOrderStateResponse = z.infer<typeof ZPayOrderStateResponse>;

/**
 * The sandbox cashier's view of an order (its dev routes, only while the sandbox provider is in
 * use): what a payment app shows the payer before they confirm.
 */
export const ZSandboxOrder = ZOrderDetails.pick({ orderno: true, state: true, amount: true, paytype: true, subject: true });
export type TSandboxOrder = z.infer<typeof ZSandboxOrder>;

/** payorderlist (ours): the signed-in user's orders, newest first. */
export const ZPayOrderListRequest = ZSignedIn.extend({
  page: z.coerce.number().int().min(1).max(1000).default(1),
  pagesize: z.coerce.number().int().min(1).max(50).default(10),
  /** Only orders in this state (the invoice page asks for paid ones). */
  state: z.enum(ORDER_STATES).optional(),
});
export const ZPayOrderListResponse = successOf({ orders: z.array(ZOrderDetails), total: z.number().int() });
export type TPayOrderListResponse = z.infer<typeof ZPayOrderListResponse>;

// ---------------------------------------------------------------------------------------------
// Invoices (FACTS: title type, title, tax id for companies, optional VAT details, e-mail)

export const INVOICE_TITLE_TYPES = ['personal', 'company'] as const;
export type TInvoiceTitleType = (typeof INVOICE_TITLE_TYPES)[number];
export const INVOICE_STATES = ['submitted', 'issued'] as const;
export type TInvoiceState = (typeof INVOICE_STATES)[number];

/** 纳税人识别号: 15, 18 or 20 digits or capital letters (the unified social credit code is 18). */
export const TAX_NO_PATTERN = /^(?:[0-9A-Z]{15}|[0-9A-Z]{18}|[0-9A-Z]{20})$/;
/** A landline (area code, hyphens, extension) or a mobile number. */
export const INVOICE_PHONE_PATTERN = /^(?:\+?86-?)?(?:0\d{2,3}-?\d{7,8}(?:-\d{1,6})?|1[3-9]\d{9}|400-?\d{3}-?\d{4})$/;

// nullish: the web's client sends what the schema parsed, where an empty field became null.
const optionalText = (schema: z.ZodString) =>
  z
    .string()
    .nullish()
    .transform((value) => (value ?? '').trim())
    .pipe(z.union([z.literal(''), schema]))
    .transform((value) => (value === '' ? null : value));

/**
 * The invoice form, checked field by field in the web and again on the server. A company needs
 * its tax id; the title of a company is its full name (at least 4 characters: 有限公司 alone is 4).
 */
export const ZInvoiceApplyRequest = ZSignedIn.extend({
  orderno: z.string({ error: INVOICE_MESSAGES.orderNo }).trim().regex(ORDER_NO_PATTERN, { error: INVOICE_MESSAGES.orderNo }),
  titletype: z.enum(INVOICE_TITLE_TYPES, { error: INVOICE_MESSAGES.titleType }),
  title: z
    .string({ error: INVOICE_MESSAGES.titleEmpty })
    .trim()
    .min(1, { error: INVOICE_MESSAGES.titleEmpty })
    .max(100, { error: INVOICE_MESSAGES.titleTooLong })
    .refine(isCleanLine, { error: INPUT_MESSAGES.characters }),
  taxno: z
    .string()
    .optional()
    .transform((value) => (value ?? '').replace(/\s+/g, '').toUpperCase()),
  email: z
    .string({ error: INVOICE_MESSAGES.emailEmpty })
    .trim()
    .min(1, { error: INVOICE_MESSAGES.emailEmpty })
    .max(100, { error: INVOICE_MESSAGES.emailInvalid })
    .regex(EMAIL_PATTERN, { error: INVOICE_MESSAGES.emailInvalid }),
  address: optionalText(
    z.string().max(100, { error: INVOICE_MESSAGES.addressTooLong }).refine(isCleanLine, { error: INPUT_MESSAGES.characters }),
  ),
  phone: optionalText(z.string().regex(INVOICE_PHONE_PATTERN, { error: INVOICE_MESSAGES.phoneInvalid })),
  bank: optionalText(z.string().max(50, { error: INVOICE_MESSAGES.bankTooLong }).refine(isCleanLine, { error: INPUT_MESSAGES.characters })),
  bankaccount: optionalText(z.string().regex(/^\d{8,30}$/, { error: INVOICE_MESSAGES.bankAccountInvalid })),
}).superRefine((value, context) => {
  if (value.titletype === 'company') {
    if (value.title.length < 4) context.addIssue({ code: 'custom', path: ['title'], message: INVOICE_MESSAGES.companyTitleTooShort });
    if (value.taxno === '') context.addIssue({ code: 'custom', path: ['taxno'], message: INVOICE_MESSAGES.taxNoEmpty });
    else if (!TAX_NO_PATTERN.test(value.taxno))
      context.addIssue({ code: 'custom', path: ['taxno'], message: INVOICE_MESSAGES.taxNoInvalid });
  } else if (value.taxno !== '' && !TAX_NO_PATTERN.test(value.taxno)) {
    // A person needs no tax id, but one given must be a real one.
    context.addIssue({ code: 'custom', path: ['taxno'], message: INVOICE_MESSAGES.taxNoInvalid });
  }
});
export type TInvoiceApplication = z.output<typeof ZInvoiceApplyRequest>;

export const ZInvoice = z.object({
  orderno: z.string(),
  titletype: z.enum(INVOICE_TITLE_TYPES),
  title: z.string(),
  taxno: z.string(),
  email: z.string(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  bank: z.string().nullable(),
  bankaccount: z.string().nullable(),
  state: z.enum(INVOICE_STATES),
  /** Yuan: the order's amount. */
  amount: z.number(),
  createtime: z.number().int(),
  issuedtime: z.number().int().nullable(),
});
export type TInvoice = z.infer<typeof ZInvoice>;

export const ZInvoiceApplyResponse = successOf({ invoice: ZInvoice });
export const ZInvoiceListRequest = ZSignedIn;
export const ZInvoiceListResponse = successOf({ invoices: z.array(ZInvoice) });
export type TInvoiceListResponse = z.infer<typeof ZInvoiceListResponse>;

export const payEndpoints = {
  paycatalogue: defineEndpoint({ path: '/api/v4/paycatalogue', request: ZPayCatalogueRequest, response: ZPayCatalogueResponse }),
  memrole: defineEndpoint({ path: '/api/v4/memrole', request: ZMemRoleRequest, response: ZMemRoleResponse }),
  memorder: defineEndpoint({ path: '/api/v4/memorder', request: ZMemOrderRequest, response: ZOrderCreated }),
  paymerge: defineEndpoint({ path: '/api/v4/paymerge', request: ZPayMergeRequest, response: ZOrderCreated }),
  payorderstatedetails: defineEndpoint({
    path: '/api/v4/payorderstatedetails',
    request: ZPayOrderStateRequest,
    response: ZPayOrderStateResponse,
  }),
  payorderlist: defineEndpoint({ path: '/api/v4/payorderlist', request: ZPayOrderListRequest, response: ZPayOrderListResponse }),
  invoiceapply: defineEndpoint({ path: '/api/v4/invoiceapply', request: ZInvoiceApplyRequest, response: ZInvoiceApplyResponse }),
  invoicelist: defineEndpoint({ path: '/api/v4/invoicelist', request: ZInvoiceListRequest, response: ZInvoiceListResponse }),
} satisfies Record<string, Endpoint>;

// ---------------------------------------------------------------------------------------------
// Plain helpers shared by the web and the API

/** Fen to yuan for the wire (68.00 -> 68, 12.5 -> 12.5). */
export function yuanOfFen(fen: number): number {
  return Math.round(fen) / 100;
}

/** Yuan as a price tag: ¥68 or ¥12.50. */
export function formatYuan(yuan: number): string {
  const fen = Math.round(yuan * 100);
  return fen % 100 === 0 ? `¥${fen / 100}` : `¥${(fen / 100).toFixed(2)}`;
}

/** The sandbox cashier page an order's QR leads to while the sandbox provider is in use. */
export function sandboxCashierPath(orderno: string): string {
  return `/pay/sandbox/${orderno}`;
}

/** Decision 0043: the page a phone comes back to from the payment app; it polls the order. */
export function payResultPath(orderno: string): string {
  return `/pay/result/${orderno}`;
}

/** Decision 0043: the server route that gets a WeChat buyer's openid (OAuth) and returns to `back`. */
export const WECHAT_OPENID_PATH = '/api/pay/wechat/openid';
