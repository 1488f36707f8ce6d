import type { Generated, Insertable, Selectable } from 'kysely';

// Decision 0018: memberships and purchase (migration 2026-11-22T0500_pay). Money in fen, epochs in
// seconds, booleans 0/1.

export type PayPack = 'month' | 'quarter' | 'year' | 'lifetime';
export type PayChannel = 'pc' | 'app';
export type PayType = 'wxpay' | 'alipay';
/** Decision 0043: desktop (QR codes), mobile (the app opens), wechat (JSAPI in WeChat's browser). */
export type PayScene = 'desktop' | 'mobile' | 'wechat';
export type PayProviderName = 'sandbox' | 'wechatpay' | 'alipay';
export type OrderState = 'unpaid' | 'paid' | 'closed';
export type InvoiceTitleType = 'personal' | 'company';
export type InvoiceState = 'submitted' | 'issued';
/** What a payment notice did: granted the order, repeated one already granted, or was refused. */
export type PayNoticeOutcome =
  | 'granted'
  | 'duplicate'
  | 'amount-mismatch'
  | 'unknown-order'
  | 'late-granted'
  | 'double-paid'
  | 'refund-settled'
  | 'refund-duplicate'
  | 'refund-unknown';
/** What the operator must look at on an order (decision 0043). */
export type PayOrderFlag = 'late-payment' | 'double-payment';
export type PayRefundState = 'processing' | 'succeeded' | 'failed';

export interface PayProductTable {
  /** spec §6 product id (211, 214, 202, 297, 204, 203). */
  product_id: number;
  name: string;
  sort: Generated<number>;
}

export interface PayPackageTable {
  /** The vendor's package id (`realId`, spec §9). */
  real_id: number;
  code: string;
  product_id: number;
  name: string;
  paypack: PayPack;
  /** null for lifetime. */
  months: number | null;
  price_fen: number;
  price_ori_fen: number;
  channel: Generated<PayChannel>;
  recommended: Generated<number>;
  sort: Generated<number>;
  active: Generated<number>;
}

export interface PayBundleTable {
  real_id: number;
  code: string;
  name: string;
  price_fen: number;
  price_ori_fen: number;
  sort: Generated<number>;
  active: Generated<number>;
}

export interface PayBundleItemTable {
  bundle_real_id: number;
  package_real_id: number;
}

export interface PayOrderTable {
  id: Generated<number>;
  orderno: string;
  user_id: number;
  paytype: PayType;
  provider: PayProviderName;
  state: Generated<OrderState>;
  amount_fen: number;
  subject: string;
  /** The bundle whose price the order carries (paymerge), if any. */
  bundle_real_id: number | null;
  payurl: Generated<string>;
  created_at: number;
  expires_at: number;
  paid_at: number | null;
  closed_at: number | null;
  transaction_id: string | null;
  /** When the server last asked the provider about this unpaid order (a lost notice). */
  provider_checked_at: number | null;
  /** Decision 0043: `user:bundle:packages` while unpaid (unique), null once paid or closed. */
  open_key: string | null;
  /** Decision 0043: the providers asked to take this order's payment, comma separated. */
  tried_providers: Generated<string>;
  /** Decision 0043: where the cashier ran. */
  pay_scene: Generated<PayScene>;
  /** Decision 0043: null, or what the operator must look at. */
  flag: Generated<PayOrderFlag | null>;
  /** Fen refunded so far (refunds succeeded or still processing). */
  refunded_fen: Generated<number>;
}

/** Decision 0043: a refund asked of the provider, unique by its refund number. */
export interface PayRefundTable {
  id: Generated<number>;
  refund_no: string;
  order_id: number;
  provider: PayProviderName;
  amount_fen: number;
  reason: string;
  state: Generated<PayRefundState>;
  /** WeChat's refund_id, Alipay's trade_no of the refund. */
  provider_refund_id: string | null;
  operator_user_id: number | null;
  created_at: number;
  finished_at: number | null;
  /** Why it failed, as the provider said. */
  detail: string | null;
}

export interface PayOrderItemTable {
  id: Generated<number>;
  order_id: number;
  package_real_id: number;
  product_id: number;
  name: string;
  paypack: PayPack;
  months: number | null;
  /** The package's own price when ordered (a bundle's items add up to more than its price). */
  price_fen: number;
}

export interface PayNoticeTable {
  id: Generated<number>;
  provider: PayProviderName;
  orderno: string;
  transaction_id: string;
  amount_fen: number;
  outcome: PayNoticeOutcome;
  received_at: number;
}

export interface InvoiceTable {
  id: Generated<number>;
  order_id: number;
  user_id: number;
  title_type: InvoiceTitleType;
  title: string;
  tax_no: Generated<string>;
  email: string;
  address: string | null;
  phone: string | null;
  bank: string | null;
  bank_account: string | null;
  state: Generated<InvoiceState>;
  created_at: number;
  issued_at: number | null;
  /** Decision 0043: 1 when the order was refunded after the invoice was issued (红冲 due). */
  reversal_due: Generated<number>;
}

export interface PayTables {
  pay_product: PayProductTable;
  pay_package: PayPackageTable;
  pay_bundle: PayBundleTable;
  pay_bundle_item: PayBundleItemTable;
  pay_order: PayOrderTable;
  pay_order_item: PayOrderItemTable;
  pay_notice: PayNoticeTable;
  pay_refund: PayRefundTable;
  invoice: InvoiceTable;
}

export type PayOrderRow = Selectable<PayOrderTable>;
export type NewPayOrder = Insertable<PayOrderTable>;
export type PayPackageRow = Selectable<PayPackageTable>;
export type InvoiceRow = Selectable<InvoiceTable>;
export type PayRefundRow = Selectable<PayRefundTable>;
