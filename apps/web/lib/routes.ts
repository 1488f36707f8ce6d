import { FEEDBACK_INTERNAL_PATH, FEEDBACK_PUBLIC_PATH } from './i18n/negotiate';

// The route table of spec §2: one source for the pages (title, breadcrumb, layout), the sitemap
// and the tests. Patterns are public, unprefixed paths; `{name}` is a required parameter and
// `{name?}` an optional last one. Every route also exists under `/en`.

type LayoutName = 'default' | 'center' | 'compati' | 'error' | 'operator';

export interface RouteDef {
  /** Route name; `index-id` and `dailypics-id` are the names spec §2 uses for the menu. */
  readonly name: string;
  readonly pattern: string;
  /** Key of the page's title and description in messages `pages.json`. */
  readonly messageKey: string;
  readonly layout: LayoutName;
  /** Name of the route one level up in the breadcrumb; home is always first. */
  readonly parent?: string;
  /** Parameter rules; a parameter without a rule accepts any segment. */
  readonly params?: Readonly<Record<string, RegExp>>;
  /** Folder path under `app/[locale]/(<layout>)/` when it differs from the pattern. */
  readonly folder?: string;
  /** Listed in the sitemap (only pages without parameters that a search engine should index). */
  readonly isIndexed: boolean;
}

const NUMERIC = /^\d+$/;
const ARTICLE_ID = /^\d+(\.html)?$/;
const SLUG = /^[\w-]+$/;

const page = (name: string, pattern: string, extra: Partial<Omit<RouteDef, 'name' | 'pattern'>> = {}): RouteDef => ({
  name,
  pattern,
  messageKey: extra.messageKey ?? name,
  layout: extra.layout ?? 'default',
  isIndexed: extra.isIndexed ?? !pattern.includes('{'),
  ...extra,
});

export const ROUTES: readonly RouteDef[] = [
  page('home', '/'),
  page('index-id', '/{id}', { params: { id: ARTICLE_ID }, parent: 'help', folder: '/[id]' }),
  page('index-id-page', '/{id}/{page}', { params: { id: NUMERIC, page: NUMERIC }, parent: 'index-id', folder: '/[id]/[page]' }),
  page('not-found', '/404', { layout: 'error', isIndexed: false }),
  page('basics', '/basics.html', { parent: 'resources' }),
  page('buy', '/buy.html'),
  page('complaint', '/complaint.html'),
  page('dailypic', '/dailypic.html'),
  page('download', '/download.html'),
  page('download-cadapp', '/download-cadapp.html', { parent: 'download' }),
  page('download-cadkantuapp', '/download-cadkantuapp.html', { parent: 'download' }),
  page('download-converter-app', '/download-converter-app.html', { parent: 'download' }),
  page('download-converter', '/download-converter.html', { parent: 'download' }),
  page('download-holdall', '/download-holdall.html', { parent: 'download' }),
  page('download-lookchart', '/download-lookchart.html', { parent: 'download' }),
  page('download-major', '/download-major.html', { parent: 'download' }),
  page('download-mobile-lookchart', '/download-mobile-lookchart.html', { parent: 'download' }),
  page('dwglist', '/dwglist'),
  page('dwgItem-id', '/dwgItem/{id}', { params: { id: NUMERIC }, parent: 'dwglist', folder: '/dwgItem/[id]' }),
  page('help', '/help.html'),
  page('help-page', '/help/{page?}', { params: { page: NUMERIC }, parent: 'help', folder: '/help/[[...page]]' }),
  page('invoice', '/invoice.html'),
  page('jianyi', '/jianyi.html'),
  page('kantu', '/kantu', { parent: 'tools' }),
  page('lingwai', '/lingwai.html'),
  page('lingwai-slug', '/lingwai/{slug?}', { params: { slug: SLUG }, parent: 'lingwai', folder: '/lingwai/[[...slug]]' }),
  page('loginPhone', '/loginPhone', { isIndexed: false }),
  page('master', '/master.html', { parent: 'resources' }),
  page('personal', '/personal.html', { layout: 'center', isIndexed: false }),
  page('personal-base', '/personal-base.html', { layout: 'center', parent: 'personal', isIndexed: false }),
  page('personal-buy', '/personal-buy.html', { layout: 'center', parent: 'personal', isIndexed: false }),
  page('personal-download', '/personal-download.html', { layout: 'center', parent: 'personal', isIndexed: false }),
  page('personal-openvip', '/personal-openvip.html', { layout: 'center', parent: 'personal', isIndexed: false }),
  page('privacy', '/privacy.html'),
  page('resources', '/resources.html'),
  page('share', '/share.html', { isIndexed: false }),
  page('shengming', '/shengming.html'),
  page('tag-id', '/tag/{id}', { params: { id: NUMERIC }, parent: 'help', folder: '/tag/[id]' }),
  page('tools-index', '/tools', { messageKey: 'tools', isIndexed: false }),
  page('tools', '/tools.html'),
  page('video', '/video.html', { parent: 'resources' }),
  page('weixin-login-callback', '/weixin-login-callback', { layout: 'compati', isIndexed: false }),
  page('feedback', FEEDBACK_PUBLIC_PATH, { folder: FEEDBACK_INTERNAL_PATH }),
  page('buy-cadconverter', '/buy/cadconverter.html', { parent: 'buy' }),
  page('buy-cadconverterapp', '/buy/cadconverterapp.html', { parent: 'buy' }),
  page('buy-cadeditor', '/buy/cadeditor.html', { parent: 'buy' }),
  page('buy-cadholdall', '/buy/cadholdall.html', { parent: 'buy' }),
  page('buy-cadresources', '/buy/cadresources.html', { parent: 'buy' }),
  page('buy-cadtuku', '/buy/cadtuku.html', { parent: 'buy' }),
  page('tools-cad2jpg', '/tools/cad2jpg', { parent: 'tools' }),
  page('tools-cad2pdf', '/tools/cad2pdf', { parent: 'tools' }),
  page('tools-cad2ver', '/tools/cad2ver', { parent: 'tools' }),
  page('tools-pdf2cad', '/tools/pdf2cad', { parent: 'tools' }),
  page('dailypics-id', '/dailypics/{id}', { params: { id: NUMERIC }, parent: 'dailypic', folder: '/dailypics/[id]' }),
  // `/dailypics/{tag}/{page}`: the paged pictures of a tag (0 = all), listed under 每日一图.
  page('dailypics-id-page', '/dailypics/{id}/{page}', {
    params: { id: NUMERIC, page: NUMERIC },
    parent: 'dailypic',
    folder: '/dailypics/[id]/[page]',
  }),
  page('scanlogin-logintag', '/scanlogin/{logintag}', { params: { logintag: SLUG }, layout: 'compati', folder: '/scanlogin/[logintag]' }),
  // Decision 0018: the sandbox cashier an order's QR leads to (protocol ORDER_NO_PATTERN: XC + 22 digits).
  page('pay-sandbox-orderno', '/pay/sandbox/{orderno}', {
    params: { orderno: /^XC\d{22}$/ },
    layout: 'compati',
    folder: '/pay/sandbox/[orderno]',
  }),
  // Decision 0043: where a phone comes back from the payment app (WeChat H5 redirect_url, Alipay return_url).
  page('pay-result-orderno', '/pay/result/{orderno}', {
    params: { orderno: /^XC\d{22}$/ },
    layout: 'compati',
    folder: '/pay/result/[orderno]',
  }),
  // Decision 0042: the back office. The sign-in page, then the console (its own shell and menu, the
  // folder group "(console)"); the analytics reports of decision 0022 are one of its sections.
  page('operator-login', '/operator/login', { layout: 'operator', isIndexed: false }),
  page('operator', '/operator', { layout: 'operator', isIndexed: false, folder: '/operator/(console)' }),
  page('operator-users', '/operator/users', { layout: 'operator', isIndexed: false, folder: '/operator/(console)/users' }),
  page('operator-users-id', '/operator/users/{id}', {
    layout: 'operator',
    isIndexed: false,
    params: { id: NUMERIC },
    parent: 'operator-users',
    folder: '/operator/(console)/users/[id]',
  }),
  page('operator-analytics', '/operator/analytics', { layout: 'operator', isIndexed: false, folder: '/operator/(console)/analytics' }),
  page('operator-audit', '/operator/audit', { layout: 'operator', isIndexed: false, folder: '/operator/(console)/audit' }),
  page('operator-operators', '/operator/operators', { layout: 'operator', isIndexed: false, folder: '/operator/(console)/operators' }),
];

export type RouteName = string;
export type RouteParams = Readonly<Record<string, string>>;

export function routeByName(name: RouteName): RouteDef {
  const route = ROUTES.find((candidate) => candidate.name === name);
  if (!route) throw new Error(`unknown route "${name}"`);
  return route;
}

interface PatternSegment {
  readonly param?: string;
  readonly isOptional: boolean;
  readonly literal: string;
}

function parsePattern(pattern: string): PatternSegment[] {
  if (pattern === '/') return [];
  return pattern
    .slice(1)
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)(\?)?\}$/.exec(segment);
      return param ? { param: param[1], isOptional: param[2] === '?', literal: '' } : { isOptional: false, literal: segment };
    });
}

// Parsed once: the proxy matches every page request against the table.
const parsedPatterns = new Map(ROUTES.map((route) => [route.pattern, parsePattern(route.pattern)]));

function segmentsOf(pattern: string): PatternSegment[] {
  return parsedPatterns.get(pattern) ?? parsePattern(pattern);
}

/** Static routes first, so `/tools/cad2pdf` is never taken for a parameter. */
const MATCH_ORDER = [...ROUTES].sort((a, b) => Number(a.pattern.includes('{')) - Number(b.pattern.includes('{')));

function decodeSegment(segment: string): string {
  try {
    return encodeURI(decodeURIComponent(segment));
  } catch {
    return segment;
  }
}

/** Matches an unprefixed public path against one route; its parameters, or null. */
function matchRoute(route: RouteDef, pathname: string): RouteParams | null {
  const pattern = segmentsOf(route.pattern);
  const parts = pathname === '/' ? [] : pathname.replace(/^\//, '').split('/');
  const required = pattern.filter((segment) => !segment.isOptional).length;
  if (parts.length < required || parts.length > pattern.length) return null;
  const params: Record<string, string> = {};
  for (const [index, segment] of pattern.entries()) {
    const part = parts[index];
    if (part === undefined) continue;
    if (segment.param === undefined) {
      if (decodeSegment(part) !== segment.literal) return null;
      continue;
    }
    const rule = route.params?.[segment.param];
    if (part === '' || (rule && !rule.test(part))) return null;
    params[segment.param] = part;
  }
  return params;
}

/** The route that serves an unprefixed public path, static routes first; null if none (404). */
export function resolveRoute(pathname: string): { route: RouteDef; params: RouteParams } | null {
  for (const route of MATCH_ORDER) {
    const params = matchRoute(route, pathname);
    if (params) return { route, params };
  }
  return null;
}

/** The public, unprefixed path of a route with its parameters filled in. */
export function pathOf(name: RouteName, params: RouteParams = {}): string {
  const parts: string[] = [];
  for (const segment of segmentsOf(routeByName(name).pattern)) {
    if (segment.param === undefined) {
      parts.push(segment.literal);
      continue;
    }
    const value = params[segment.param];
    if (value === undefined) {
      if (segment.isOptional) break;
      throw new Error(`route "${name}" needs parameter "${segment.param}"`);
    }
    parts.push(encodeURIComponent(value));
  }
  return `/${parts.join('/')}`;
}

/** Validates the parameters Next.js matched for a route's folder; false means 404. */
export function areParamsValid(name: RouteName, params: RouteParams): boolean {
  const route = routeByName(name);
  return Object.entries(params).every(([key, value]) => route.params?.[key]?.test(value) ?? true);
}

/** The breadcrumb trail of a route: its ancestors from the top, then itself (home not included). */
export function breadcrumbOf(name: RouteName): RouteDef[] {
  const trail: RouteDef[] = [];
  let current: RouteDef | undefined = routeByName(name);
  while (current && current.name !== 'home') {
    trail.unshift(current);
    current = current.parent ? routeByName(current.parent) : undefined;
  }
  return trail;
}

/**
 * Whether a public, unprefixed path is a page of the site. The 404 page itself is not: `/404`
 * answers with status 404 like every unknown path.
 */
export function isServedPath(pathname: string): boolean {
  const resolved = resolveRoute(pathname);
  return resolved !== null && resolved.route.name !== 'not-found';
}

/** The folder (relative to `app/[locale]/(<layout>)`) that renders a route. */
export function folderOf(route: RouteDef): string {
  return route.folder ?? (route.pattern === '/' ? '' : route.pattern);
}

/**
 * The route parameters Next.js hands a page, without `locale`, as plain strings: an optional
 * catch-all (`[[...page]]`) contributes its single segment or nothing. Null (404) when a
 * catch-all received more than one segment.
 */
export function paramsFromSegments(raw: Readonly<Record<string, string | readonly string[] | undefined>>): RouteParams | null {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    if (typeof value === 'string') {
      params[key] = value;
      continue;
    }
    if (value.length > 1) return null;
    const [single] = value;
    if (single !== undefined) params[key] = single;
  }
  return params;
}
