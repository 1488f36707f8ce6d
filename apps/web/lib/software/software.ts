// The download pages' data as `GET /api/site/software/{key}` answers it (decision 0012), read
// defensively: a field of the wrong shape is dropped rather than trusted. Pure, so it is tested
// without a server; fetching lives in ./software-api.ts.

const SOFTWARE_PLATFORMS = ['windows', 'windows32', 'mac', 'android', 'ios'] as const;
export type SoftwarePlatform = (typeof SOFTWARE_PLATFORMS)[number];

/** The nine download pages (spec §2); each page's route name is its product key in the API. */
export const DOWNLOAD_ROUTES = [
  'download',
  'download-major',
  'download-converter',
  'download-lookchart',
  'download-holdall',
  'download-cadapp',
  'download-cadkantuapp',
  'download-converter-app',
  'download-mobile-lookchart',
] as const;
export type DownloadRoute = (typeof DOWNLOAD_ROUTES)[number];

export interface SoftwareFile {
  readonly platform: SoftwarePlatform;
  /** null for a store page (iOS). */
  readonly fileName: string | null;
  readonly size: number;
  /** The installer's SHA-256 (64 lower-case hex digits); null for a store page or when not given. */
  readonly sha256: string | null;
  readonly isStore: boolean;
  /** The counting URL (site path): counts the download, then redirects to the file or store. */
  readonly url: string;
}

interface SoftwareRequirement {
  readonly item: string;
  readonly minimum: string;
  readonly recommended: string | null;
}

export interface SoftwareRelease {
  readonly version: string;
  /** YYYY-MM-DD */
  readonly releasedAt: string;
  readonly added: readonly string[];
  readonly improved: readonly string[];
  readonly fixed: readonly string[];
}

export interface Software {
  readonly key: string;
  readonly name: string;
  readonly productId: number | null;
  readonly tagline: string;
  readonly version: string;
  readonly releasedAt: string;
  readonly files: readonly SoftwareFile[];
  readonly features: ReadonlyArray<{ readonly title: string; readonly text: string }>;
  readonly requirements: readonly SoftwareRequirement[];
  /** Newest first. */
  readonly changelog: readonly SoftwareRelease[];
  readonly downloads: number;
  readonly help: readonly number[];
  readonly buyPath: string | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

function texts(value: unknown): string[] {
  return Array.isArray(value) ? value.map(text).filter((item) => item !== '') : [];
}

function isPlatform(value: unknown): value is SoftwarePlatform {
  return typeof value === 'string' && (SOFTWARE_PLATFORMS as readonly string[]).includes(value);
}

/** Only site paths: the page never links somewhere the API did not mean. */
function sitePath(value: unknown): string | null {
  return typeof value === 'string' && /^\/(?!\/)[^\s]*$/.test(value) ? value : null;
}

function fileOf(value: unknown): SoftwareFile | null {
  if (!isRecord(value) || !isPlatform(value.platform)) return null;
  const url = sitePath(value.url);
  if (url === null) return null;
  return {
    platform: value.platform,
    fileName: text(value.fileName) || null,
    size: count(value.size),
    sha256: typeof value.sha256 === 'string' && /^[0-9a-f]{64}$/.test(value.sha256) ? value.sha256 : null,
    isStore: value.isStore === true,
    url,
  };
}

function releaseOf(value: unknown): SoftwareRelease | null {
  if (!isRecord(value) || text(value.version) === '') return null;
  return {
    version: text(value.version),
    releasedAt: text(value.releasedAt),
    added: texts(value.added),
    improved: texts(value.improved),
    fixed: texts(value.fixed),
  };
}

/** The API's answer as the page uses it; null when it is not a product at all. */
export function softwareOf(body: unknown): Software | null {
  if (!isRecord(body) || text(body.key) === '' || text(body.name) === '' || text(body.version) === '') return null;
  const files = Array.isArray(body.files) ? body.files.map(fileOf).filter((file) => file !== null) : [];
  if (files.length === 0) return null;
  return {
    key: text(body.key),
    name: text(body.name),
    productId: typeof body.productId === 'number' ? body.productId : null,
    tagline: text(body.tagline),
    version: text(body.version),
    releasedAt: text(body.releasedAt),
    files,
    features: Array.isArray(body.features)
      ? body.features
          .filter(isRecord)
          .map((feature) => ({ title: text(feature.title), text: text(feature.text) }))
          .filter((feature) => feature.title !== '')
      : [],
    requirements: Array.isArray(body.requirements)
      ? body.requirements
          .filter(isRecord)
          .map((row) => ({ item: text(row.item), minimum: text(row.minimum), recommended: text(row.recommended) || null }))
          .filter((row) => row.item !== '')
      : [],
    changelog: Array.isArray(body.changelog) ? body.changelog.map(releaseOf).filter((release) => release !== null) : [],
    downloads: count(body.downloads),
    help: Array.isArray(body.help)
      ? body.help.filter((id): id is number => typeof id === 'number' && Number.isSafeInteger(id) && id > 0)
      : [],
    buyPath: sitePath(body.buyPath),
  };
}

/** The count in a fresh answer of the API, or null. */
export function downloadsOf(body: unknown): number | null {
  return isRecord(body) && typeof body.downloads === 'number' ? count(body.downloads) : null;
}

/** A mobile app: offered for phones only, so the page shows store buttons and QR codes. */
export function isMobileApp(software: Pick<Software, 'files'>): boolean {
  return software.files.every((file) => file.platform === 'android' || file.platform === 'ios');
}

/** File sizes as Windows Explorer shows them: binary units, one decimal (83.3 MB). */
export function formatSize(bytes: number): string {
  const units = ['KB', 'MB', 'GB'] as const;
  let value = bytes / 1024;
  let unit: (typeof units)[number] = 'KB';
  for (const next of units.slice(1)) {
    if (value < 1024) break;
    value /= 1024;
    unit = next;
  }
  return `${value.toFixed(1)} ${unit}`;
}

/** A phone or tablet (iPads introduce themselves as Macs with a touch screen). */
export function isPhoneUserAgent(userAgent: string, maxTouchPoints = 0): boolean {
  const ua = userAgent.toLowerCase();
  return /iphone|ipad|ipod|android/.test(ua) || (ua.includes('macintosh') && maxTouchPoints > 1);
}

/**
 * The platform that fits the visitor's browser, among those the product has: a Mac gets the Mac
 * build, a phone its own, a 32-bit Windows the 32-bit build (else the 64-bit one); null when none
 * fits. iPads introduce themselves as Macs: a "Mac" with a touch screen (`maxTouchPoints` > 1) is one.
 */
export function preferredPlatform(userAgent: string, platforms: readonly SoftwarePlatform[], maxTouchPoints = 0): SoftwarePlatform | null {
  const has = (platform: SoftwarePlatform) => platforms.includes(platform);
  const ua = userAgent.toLowerCase();
  const wanted: SoftwarePlatform[] = [];
  if (ua.includes('android')) wanted.push('android');
  else if (isPhoneUserAgent(userAgent, maxTouchPoints)) wanted.push('ios');
  else if (ua.includes('mac os x') || ua.includes('macintosh')) wanted.push('mac');
  else if (ua.includes('windows')) wanted.push(/win64|x64|wow64|amd64|arm64/.test(ua) ? 'windows' : 'windows32', 'windows');
  return wanted.find(has) ?? null;
}

/** The help article page of an id (/{id}.html). */
export function helpPath(id: number): string {
  return `/${id}.html`;
}
