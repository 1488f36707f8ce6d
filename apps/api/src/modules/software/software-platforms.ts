import type { SoftwarePlatform } from '@xcad/db';

// The platforms a download page offers (decision 0012). Desktop installers are files under
// SOFTWARE_DOWNLOAD_BASE_URL; iOS apps come from the App Store, so that platform is a store page.

export interface PlatformRule {
  readonly platform: SoftwarePlatform;
  /** How a file of this platform must end; null when the platform is only a store page. */
  readonly extensions: readonly string[] | null;
  /** Where a store page of this platform must live; null when it has no store. */
  readonly storeOrigin: string | null;
}

/** In the order a page lists them. */
const PLATFORM_RULES: readonly PlatformRule[] = [
  { platform: 'windows', extensions: ['.exe', '.msi'], storeOrigin: null },
  { platform: 'windows32', extensions: ['.exe', '.msi'], storeOrigin: null },
  { platform: 'mac', extensions: ['.dmg', '.pkg'], storeOrigin: null },
  { platform: 'android', extensions: ['.apk'], storeOrigin: null },
  { platform: 'ios', extensions: null, storeOrigin: 'https://apps.apple.com' },
];

export const PLATFORMS: readonly SoftwarePlatform[] = PLATFORM_RULES.map((rule) => rule.platform);

export function isPlatform(value: unknown): value is SoftwarePlatform {
  return typeof value === 'string' && (PLATFORMS as readonly string[]).includes(value);
}

export function platformRuleOf(platform: SoftwarePlatform): PlatformRule {
  const rule = PLATFORM_RULES.find((candidate) => candidate.platform === platform);
  if (rule === undefined) throw new Error(`unknown platform ${platform}`);
  return rule;
}

/** Position of a platform in PLATFORMS, for sorting. */
export function platformOrder(platform: SoftwarePlatform): number {
  return PLATFORMS.indexOf(platform);
}
