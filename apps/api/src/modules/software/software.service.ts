import { createHash } from 'node:crypto';
import type { SoftwarePlatform } from '@xcad/db';
import { ApiError, PROTOCOL_ERRORS } from '@xcad/protocol';
import type { SiteDeps } from '../site-deps';
import { isPlatform, platformOrder } from './software-platforms';
import { countDownload, findFile, findProduct } from './software.repository';
import type { ReleaseNotes, SoftwareFeature, SoftwareRequirement } from './software-source';

// The download pages' data and counter (decision 0012). A download is counted by the API's own URL,
// which then redirects to the installer (SOFTWARE_DOWNLOAD_BASE_URL + file name) or the store.

/** A client's downloads of one product count once per this many seconds (a reload, a double click). */
const DOWNLOAD_COUNT_WINDOW_SECONDS = 60;

export const SOFTWARE_API_PREFIX = '/api/site/software';

interface SoftwareFileView {
  platform: SoftwarePlatform;
  /** null for a store page. */
  fileName: string | null;
  size: number;
  /** The installer's SHA-256 (lower-case hex); null for a store page. */
  sha256: string | null;
  isStore: boolean;
  /** Our counting URL (site-relative): it counts, then redirects. */
  url: string;
}

interface SoftwareReleaseView extends ReleaseNotes {
  version: string;
  releasedAt: string;
}

interface SoftwareView {
  key: string;
  name: string;
  productId: number | null;
  tagline: string;
  version: string;
  /** YYYY-MM-DD (Asia/Shanghai). */
  releasedAt: string;
  files: SoftwareFileView[];
  features: SoftwareFeature[];
  requirements: SoftwareRequirement[];
  /** Newest first; the first is the current release. */
  changelog: SoftwareReleaseView[];
  downloads: number;
  /** Ids of help articles (/{id}.html). */
  help: number[];
  buyPath: string | null;
}

interface DownloadRequest {
  key: string;
  /** As the client sent it: anything but a platform the product offers is not found. */
  platform: string;
  /** The client's address (after the trusted proxies). */
  clientAddress: string;
  /** false for HEAD: asking where a download leads is not a download. */
  shouldCount: boolean;
}

export interface SoftwareService {
  product(key: string): Promise<SoftwareView>;
  /** Counts the download (at most once per client and product per window) and answers where to send the client. */
  download(request: DownloadRequest): Promise<string>;
}

function countingUrl(key: string, platform: SoftwarePlatform): string {
  return `${SOFTWARE_API_PREFIX}/${encodeURIComponent(key)}/download?platform=${platform}`;
}

/** The installer's address: the base URL (with or without a final slash) and the file name. */
function installerUrl(baseUrl: string, fileName: string): string {
  return `${baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`}${encodeURIComponent(fileName)}`;
}

export const SOFTWARE_MESSAGES = {
  unknownProduct: '没有找到这个软件，请从软件下载页重新选择',
  unknownPlatform: (offered: readonly string[]) => `这个软件没有该平台的安装包，可选：${offered.join('、')}`,
  missingPlatform: (platforms: readonly string[]) => `请选择下载平台：${platforms.join('、')}`,
} as const;

function notFound(userMessage: string, logMessage: string): ApiError {
  return new ApiError({ code: PROTOCOL_ERRORS.notFound.code, httpStatus: 404, userMessage, logMessage });
}

export function unknownProductError(logMessage: string): ApiError {
  return notFound(SOFTWARE_MESSAGES.unknownProduct, logMessage);
}

function parseJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

/** The address is hashed: the table keeps no addresses, and each mark lives one window. */
function clientKeyOf(address: string): string {
  return createHash('sha256').update(address, 'utf8').digest('hex').slice(0, 32);
}

export function createSoftwareService({ db, env, clock }: Pick<SiteDeps, 'db' | 'env' | 'clock'>): SoftwareService {
  return {
    async product(key) {
      const stored = await findProduct(db, key);
      if (stored === undefined) throw unknownProductError(`unknown software ${key}`);
      const { product } = stored;
      return {
        key: product.key,
        name: product.name,
        productId: product.product_id,
        tagline: product.tagline,
        version: product.version,
        releasedAt: product.released_on,
        files: [...stored.files]
          .sort((a, b) => platformOrder(a.platform) - platformOrder(b.platform))
          .map((file) => ({
            platform: file.platform,
            fileName: file.file_name,
            size: Number(file.size_bytes),
            sha256: file.sha256,
            isStore: file.store_url !== null,
            url: countingUrl(product.key, file.platform),
          })),
        features: parseJson<SoftwareFeature[]>(product.features_json),
        requirements: parseJson<SoftwareRequirement[]>(product.requirements_json),
        changelog: [...stored.releases]
          .sort((a, b) => (a.released_on === b.released_on ? 0 : a.released_on < b.released_on ? 1 : -1))
          .map((release) => ({
            version: release.version,
            releasedAt: release.released_on,
            ...parseJson<ReleaseNotes>(release.notes_json),
          })),
        downloads: stored.downloads,
        help: parseJson<number[]>(product.help_json),
        buyPath: product.buy_path,
      };
    },

    async download({ key, platform, clientAddress, shouldCount }) {
      const file = isPlatform(platform) ? await findFile(db, key, platform) : undefined;
      if (file === undefined) {
        const stored = await findProduct(db, key);
        if (stored === undefined) throw unknownProductError(`unknown software ${key}`);
        const offered = [...stored.files]
          .sort((a, b) => platformOrder(a.platform) - platformOrder(b.platform))
          .map((entry) => entry.platform);
        throw notFound(SOFTWARE_MESSAGES.unknownPlatform(offered), `software ${key} has no file for platform ${platform.slice(0, 40)}`);
      }
      if (shouldCount) {
        await countDownload(db, {
          productKey: key,
          platform: file.platform,
          client: clientKeyOf(clientAddress),
          now: Math.floor(clock() / 1000),
          windowSeconds: DOWNLOAD_COUNT_WINDOW_SECONDS,
        });
      }
      if (file.store_url !== null) return file.store_url;
      if (file.file_name === null) throw new Error(`software ${key} ${platform} has neither a file nor a store page`);
      return installerUrl(env.SOFTWARE_DOWNLOAD_BASE_URL, file.file_name);
    },
  };
}
