import { ANALYTICS_PLATFORMS, type AnalyticsPlatform } from '@xcad/protocol/constants';
import type { ANALYTICS_SOFTWARE_VERSIONS } from '@xcad/protocol/analytics';
import type { KeyValueStorage } from '@/lib/device-id';

// The common fields of every analytics event (spec §3 "Software info"): which software and
// version sent it, through which channel the visitor first came, the platform, a generated id of
// this browser profile, and the page. Pure: the browser glue passes location, storage and bridge in.

export type SoftwareVersion = (typeof ANALYTICS_SOFTWARE_VERSIONS)[number];

/** The deployment as the server describes it to the page (components/analytics/analytics-root). */
export interface SiteIdentity {
  /** SITE_URL: the public origin of this deployment. */
  readonly siteUrl: string;
  /** SITE_ENVIRONMENT=test marks a whole deployment as the test host. */
  readonly isTestDeployment: boolean;
  /** A development server (`next dev`) is never the production host. */
  readonly isDevelopment: boolean;
}

/**
 * spec §3 and §9: 'online' on the production host, 'test' on the test host. The production host
 * is SITE_URL's host name on a deployment not marked as the test one; the same build opened on
 * any other host name (a staging domain, a LAN address, localhost) is a test host. The port is
 * not compared: a build prerendered for one port keeps serving behind another.
 */
export function softwareVersionOf(hostname: string, site: SiteIdentity): SoftwareVersion {
  if (site.isTestDeployment || site.isDevelopment) return 'test';
  let siteHostname: string;
  try {
    siteHostname = new URL(site.siteUrl).hostname;
  } catch {
    return 'test';
  }
  return hostname.toLowerCase() === siteHostname.toLowerCase() ? 'online' : 'test';
}

export const CHANNEL_STORAGE_KEY = 'xcad_analytics_channel';
const CHANNEL_MAX = 64;

/**
 * The channel a visitor came through: the first `?channel=` (or `utm_source=`) this browser saw,
 * kept in storage so later pages and visits report the same one. '' for a direct visitor.
 */
export function channelOf(search: string, storage: KeyValueStorage | null): string {
  let stored: string | null = null;
  try {
    stored = storage?.getItem(CHANNEL_STORAGE_KEY) ?? null;
  } catch {
    stored = null;
  }
  if (stored) return stored;
  const params = new URLSearchParams(search);
  const seen = (params.get('channel') ?? params.get('utm_source') ?? '').trim().slice(0, CHANNEL_MAX);
  if (!seen) return '';
  try {
    storage?.setItem(CHANNEL_STORAGE_KEY, seen);
  } catch {
    // Without storage the channel holds for this page only.
  }
  return seen;
}

/** What the analytics read of the desktop shell's `window.desktop` bridge (packages/protocol desktop.ts). */
export interface DesktopInfo {
  readonly isDesktop?: unknown;
  readonly platform?: unknown;
  readonly channel?: unknown;
}

function isDesktopShell(bridge: DesktopInfo | undefined): boolean {
  return bridge?.isDesktop === true;
}

/** WEB in a browser; inside the desktop app the platform the shell reports (OTHER when unknown). */
export function platformOf(bridge: DesktopInfo | undefined): AnalyticsPlatform {
  if (!isDesktopShell(bridge)) return 'WEB';
  const platform = typeof bridge?.platform === 'string' ? bridge.platform.toUpperCase() : '';
  return (ANALYTICS_PLATFORMS as readonly string[]).includes(platform) && platform !== 'WEB' ? (platform as AnalyticsPlatform) : 'OTHER';
}

/** spec §3 software name: the site, or the desktop shell showing it. */
export function softwareNameOf(bridge: DesktopInfo | undefined): 'web' | 'desktop' {
  return isDesktopShell(bridge) ? 'desktop' : 'web';
}

/** The desktop shell's own install channel, when it reports one, wins over the page's. */
export function desktopChannelOf(bridge: DesktopInfo | undefined): string | null {
  if (!isDesktopShell(bridge) || typeof bridge?.channel !== 'string') return null;
  const channel = bridge.channel.trim().slice(0, CHANNEL_MAX);
  return channel === '' ? null : channel;
}

export const UID_STORAGE_KEY = 'xcad_analytics_uid';

/** The generated id of this browser profile (spec §3 "generated unique id"), created on first use. */
export function readOrCreateUid(storage: KeyValueStorage | null, generate: () => string): string {
  try {
    const stored = storage?.getItem(UID_STORAGE_KEY);
    if (stored) return stored;
  } catch {
    // Unreadable storage: a fresh id for this page.
  }
  const uid = generate();
  try {
    storage?.setItem(UID_STORAGE_KEY, uid);
  } catch {
    // Kept for this page only.
  }
  return uid;
}

/** A random v4-shaped id; `crypto.randomUUID` exists only on secure origins, getRandomValues everywhere. */
export function randomId(crypto: Pick<Crypto, 'getRandomValues'> & { randomUUID?: () => string }): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const PAGE_MAX = 512;
const REFERRER_MAX = 512;

/** The page as events name it: the path alone (no query, no hash), at most 512 characters. */
export function pagePathOf(pathname: string): string {
  const path = pathname.startsWith('/') ? pathname : `/${pathname}`;
  return path.slice(0, PAGE_MAX);
}

/**
 * Where the visitor came from: another site's origin and path (never its query, which may carry
 * search words or tokens); '' for none or for a page of this site.
 */
export function referrerOf(referrer: string, ownOrigin: string): string {
  if (!referrer) return '';
  try {
    const url = new URL(referrer);
    if (url.origin === ownOrigin) return '';
    return `${url.origin}${url.pathname}`.slice(0, REFERRER_MAX);
  } catch {
    return '';
  }
}

/**
 * What identifies a sign-in without exposing it: a phone as 138****0000, an e-mail as a***@host,
 * any other account name as its first two characters and asterisks. Never a password or a code.
 */
export function maskLoginId(account: string): string {
  const value = account.trim();
  if (value === '') return '';
  const phone = /^(?:\+?\d{1,3}-)?(1\d{2})\d{4}(\d{4})$/.exec(value);
  if (phone) return `${phone[1]}****${phone[2]}`;
  const at = value.indexOf('@');
  if (at > 0) return `${value[0]}***${value.slice(at)}`.slice(0, 64);
  return `${Array.from(value).slice(0, 2).join('')}***`;
}
