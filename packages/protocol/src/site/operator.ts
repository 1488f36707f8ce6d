import { z } from 'zod';

// The back office (decision 0042): operator roles, the console's sections and who may use each,
// the limits of operator sessions, the refusals of every operator call, and the shapes the console
// pages read. Operator calls live under /api/operator/* and answer plain JSON (not the /api/v4
// envelope); refusals are {code, message} with the HTTP status below.

export const OPERATOR_ROLES = ['admin', 'support', 'finance', 'editor'] as const;
export type TOperatorRole = (typeof OPERATOR_ROLES)[number];

export const OPERATOR_ROLE_LABELS: Readonly<Record<TOperatorRole, string>> = {
  admin: '管理员',
  support: '客服',
  finance: '财务',
  editor: '内容编辑',
};

/** A role as typed on the command line or in a form: its code or its Chinese name. */
export function operatorRoleOf(text: string): TOperatorRole | undefined {
  const trimmed = text.trim();
  return OPERATOR_ROLES.find((role) => role === trimmed || OPERATOR_ROLE_LABELS[role] === trimmed);
}

/** The console's sections in menu order, and the roles that may use each (管理员 may use all). */
export const OPERATOR_SECTIONS = {
  overview: { label: '概览', path: '/operator', roles: ['admin', 'support', 'finance', 'editor'] },
  orders: { label: '订单', path: '/operator/orders', roles: ['admin', 'support', 'finance'] },
  users: { label: '用户', path: '/operator/users', roles: ['admin', 'support'] },
  invoices: { label: '发票', path: '/operator/invoices', roles: ['admin', 'finance'] },
  tickets: { label: '工单', path: '/operator/tickets', roles: ['admin', 'support'] },
  tasks: { label: '转换任务', path: '/operator/tasks', roles: ['admin', 'support'] },
  analytics: { label: '统计', path: '/operator/analytics', roles: ['admin', 'finance', 'editor'] },
  audit: { label: '审计日志', path: '/operator/audit', roles: ['admin'] },
  operators: { label: '操作员', path: '/operator/operators', roles: ['admin'] },
} as const satisfies Record<string, { label: string; path: string; roles: readonly TOperatorRole[] }>;
export type TOperatorSection = keyof typeof OPERATOR_SECTIONS;

export function canUseSection(roles: readonly TOperatorRole[], section: TOperatorSection): boolean {
  const allowed: readonly TOperatorRole[] = OPERATOR_SECTIONS[section].roles;
  return roles.some((role) => allowed.includes(role));
}

export const OPERATOR_LIMITS = {
  /** An operator session ends after this long without a request (the issue: 30 minutes idle). */
  idleSeconds: 30 * 60,
  /** ... and after this long whatever happens (a working day). */
  maxSeconds: 12 * 3600,
  /** How often the idle clock is written back (a page of the console makes several calls). */
  touchSeconds: 30,
  reasonMaxLength: 500,
  pageSize: 20,
  /** The longest a grant or extension may add in one step. */
  maxGrantDays: 3660,
} as const;

/** The operator session's cookie (HttpOnly, SameSite=Strict, apart from the user's xcad_session). */
export const OPERATOR_COOKIE = 'xcad_operator';
/** The header every change sends back the session's CSRF token in. */
export const OPERATOR_CSRF_HEADER = 'x-csrf-token';

export const OPERATOR_ERRORS = {
  malformed: { code: 10001, status: 400, message: '请求参数错误' },
  signInRequired: { code: 25001, status: 401, message: '请先登录后台' },
  forbidden: { code: 25003, status: 403, message: '您的角色无权进行此操作' },
  crossSite: { code: 25004, status: 403, message: '请求来源无效，请刷新页面后重试' },
  notOperator: { code: 25005, status: 403, message: '该手机号不是后台操作员' },
  accountDisabled: { code: 10063, status: 403, message: '账号异常' },
  notFound: { code: 25404, status: 404, message: '记录不存在' },
  reasonRequired: { code: 25010, status: 400, message: '请填写操作原因' },
  lastAdmin: { code: 25011, status: 409, message: '不能移除最后一位管理员' },
} as const;
export type OperatorErrorKind = keyof typeof OPERATOR_ERRORS;

const reason = z
  .string({ error: OPERATOR_ERRORS.reasonRequired.message })
  .trim()
  .min(1, OPERATOR_ERRORS.reasonRequired.message)
  .max(OPERATOR_LIMITS.reasonMaxLength, `操作原因最多 ${OPERATOR_LIMITS.reasonMaxLength} 字`);

export const ZOperatorSmsRequest = z.strictObject({ phone: z.string().max(32) });
export const ZOperatorLoginRequest = z.strictObject({ phone: z.string().max(32), code: z.string().max(8) });

export const ZOperatorMe = z.object({
  userId: z.number(),
  maskedPhone: z.string(),
  nickname: z.string(),
  roles: z.array(z.enum(OPERATOR_ROLES)),
  csrf: z.string(),
  /** Epoch seconds the session ends if left idle. */
  idleUntil: z.number(),
});
export type TOperatorMe = z.infer<typeof ZOperatorMe>;

// --- Audit log -------------------------------------------------------------------------------

export const ZAuditEntry = z.object({
  id: z.number(),
  at: z.number(),
  operatorId: z.number(),
  operatorName: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  reason: z.string(),
  ip: z.string(),
});
export type TAuditEntry = z.infer<typeof ZAuditEntry>;

/** A real calendar day written YYYY-MM-DD (2026-13-01 and 2026-02-30 are not). */
const calendarDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD')
  .refine((day) => {
    const time = Date.parse(`${day}T00:00:00Z`);
    return Number.isFinite(time) && new Date(time).toISOString().startsWith(day);
  }, '日期无效');

const pageNumber = z.coerce.number().int().min(1).max(100_000).default(1);

export const ZAuditQuery = z.object({
  page: pageNumber,
  operator: z.coerce.number().int().positive().optional(),
  action: z.string().max(64).optional(),
  targetType: z.string().max(32).optional(),
  targetId: z.string().max(64).optional(),
  /** Beijing dates YYYY-MM-DD, both included. */
  from: calendarDay.optional(),
  to: calendarDay.optional(),
});
export type TAuditQuery = z.infer<typeof ZAuditQuery>;

export const ZAuditPage = z.object({ total: z.number(), page: z.number(), pageSize: z.number(), entries: z.array(ZAuditEntry) });
export type TAuditPage = z.infer<typeof ZAuditPage>;

/** What the audit log's `action` names, and how the console says it. */
export const AUDIT_ACTIONS: Readonly<Record<string, string>> = {
  'operator.login': '登录后台',
  'operator.logout': '退出后台',
  'operator.grantRole': '授予角色',
  'operator.removeRole': '移除角色',
  'user.disable': '禁用账号',
  'user.enable': '启用账号',
  'user.endSessions': '下线所有会话',
  'membership.grant': '开通会员',
  'membership.extend': '延长会员',
  'membership.revoke': '撤销会员',
};

// --- Operators -------------------------------------------------------------------------------

export const ZOperatorRow = z.object({
  userId: z.number(),
  maskedPhone: z.string(),
  nickname: z.string(),
  roles: z.array(z.enum(OPERATOR_ROLES)),
  status: z.enum(['active', 'disabled']),
});
export type TOperatorRow = z.infer<typeof ZOperatorRow>;

export const ZOperatorRoleChange = z.strictObject({
  /** The phone of the user to grant (an account must exist), or their id. */
  phone: z.string().max(32).optional(),
  userId: z.number().int().positive().optional(),
  role: z.enum(OPERATOR_ROLES, { error: '请选择角色' }),
  reason,
});

// --- Users -----------------------------------------------------------------------------------

export const ZUserSearchQuery = z.object({
  q: z.string().trim().max(64).default(''),
  status: z.enum(['active', 'disabled', '']).default(''),
  page: pageNumber,
});
export type TUserSearchQuery = z.infer<typeof ZUserSearchQuery>;

export const ZOperatorUserRow = z.object({
  userId: z.number(),
  username: z.string(),
  mobile: z.string().nullable(),
  email: z.string().nullable(),
  nickname: z.string(),
  status: z.enum(['active', 'disabled']),
  createdAt: z.number(),
});
export type TOperatorUserRow = z.infer<typeof ZOperatorUserRow>;

export const ZUserSearchPage = z.object({ total: z.number(), page: z.number(), pageSize: z.number(), users: z.array(ZOperatorUserRow) });
export type TUserSearchPage = z.infer<typeof ZUserSearchPage>;

export const ZOperatorUserDetail = ZOperatorUserRow.extend({
  hasPassword: z.boolean(),
  identities: z.array(z.string()),
  liveSessions: z.number(),
  updatedAt: z.number(),
});
export type TOperatorUserDetail = z.infer<typeof ZOperatorUserDetail>;

export const ZReasonBody = z.strictObject({ reason });

export const ZMembershipChange = z.strictObject({
  productId: z.number().int().positive(),
  /** grant/extend add `days` (from today or from the current expiry, whichever is later); revoke ends it now. */
  action: z.enum(['extend', 'revoke']),
  days: z.number().int().min(1, '天数至少为 1').max(OPERATOR_LIMITS.maxGrantDays, `天数最多 ${OPERATOR_LIMITS.maxGrantDays}`).optional(),
  reason,
});
export type TMembershipChange = z.infer<typeof ZMembershipChange>;

export const ZOperatorMembership = z.object({
  productId: z.number(),
  productName: z.string(),
  /** Epoch seconds; 0 never bought or revoked. */
  expiry: z.number(),
  active: z.boolean(),
});

export const ZOperatorUserOrder = z.object({
  orderno: z.string(),
  state: z.string(),
  amountFen: z.number(),
  provider: z.string(),
  createdAt: z.number(),
  paidAt: z.number().nullable(),
  items: z.string(),
});

export const ZOperatorUserInvoice = z.object({
  orderno: z.string(),
  state: z.string(),
  title: z.string(),
  amountFen: z.number(),
  createdAt: z.number(),
});

export const ZOperatorUserPay = z.object({
  memberships: z.array(ZOperatorMembership),
  orders: z.array(ZOperatorUserOrder),
  invoices: z.array(ZOperatorUserInvoice),
  /** The membership changes of this user, newest first (from the audit log and the paid orders). */
  history: z.array(
    z.object({
      at: z.number(),
      productId: z.number(),
      kind: z.enum(['grant', 'extend', 'revoke', 'purchase']),
      /** The expiry after the change (epoch seconds); null for a purchase (its items say what it added). */
      expiry: z.number().nullable(),
      /** The operator who changed it, or the order number of a purchase. */
      by: z.string(),
      /** A purchase's package name; '' otherwise. */
      detail: z.string(),
      reason: z.string(),
    }),
  ),
});
export type TOperatorUserPay = z.infer<typeof ZOperatorUserPay>;

// --- Dashboard (概览) -------------------------------------------------------------------------

const ZDashboardFigures = z.object({
  /** Distinct devices that sent analytics events (Beijing days). */
  visitors: z.number(),
  signups: z.number(),
  /** Orders paid in the period, and what they brought in (fen). */
  orders: z.number(),
  revenueFen: z.number(),
  /** Conversion tasks created in the period and how many of them failed. */
  conversions: z.number(),
  conversionsFailed: z.number(),
});
export type TDashboardFigures = z.infer<typeof ZDashboardFigures>;

export const ZDashboard = z.object({
  /** Beijing days: today, and the 7 days ending today. */
  today: ZDashboardFigures,
  week: ZDashboardFigures,
  openTickets: z.number(),
  invoicesWaiting: z.number(),
  /** Conversion tasks waiting for a worker, and those being converted now. */
  queued: z.number(),
  processing: z.number(),
});
export type TDashboard = z.infer<typeof ZDashboard>;
