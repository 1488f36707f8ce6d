import type { Generated, Insertable, Selectable } from 'kysely';

// Decision 0012: the tables of software releases of the download pages and their download counters
// (migration 2026-11-22T0300_software). Dates are calendar days 'YYYY-MM-DD' (Asia/Shanghai);
// epochs are seconds.

/** Where an installer runs: Windows 64-bit, Windows 32-bit, macOS, Android, iOS (App Store). */
export type SoftwarePlatform = 'windows' | 'windows32' | 'mac' | 'android' | 'ios';

export interface SoftwareProductTable {
  /** The download page's route name: download, download-converter, ... */
  key: string;
  name: string;
  /** The membership product (spec §9: 211 editor, 214 editor pro, ...), null for free apps. */
  product_id: number | null;
  tagline: string;
  /** The current release. */
  version: string;
  released_on: string;
  /** JSON: [{title, text}]. */
  features_json: string;
  /** JSON: [{item, minimum, recommended|null}]. */
  requirements_json: string;
  /** JSON: ids of help articles (/{id}.html). */
  help_json: string;
  /** The product's purchase page, e.g. /buy/cadeditor.html. */
  buy_path: string | null;
  /** SHA-256 of the YAML file it was imported from: an unchanged file is not written again. */
  source_hash: string;
}

export interface SoftwareReleaseTable {
  product_key: string;
  version: string;
  released_on: string;
  /** JSON: {added: string[], improved: string[], fixed: string[]}. */
  notes_json: string;
}

export interface SoftwareFileTable {
  product_key: string;
  platform: SoftwarePlatform;
  /** Appended to SOFTWARE_DOWNLOAD_BASE_URL; null when the platform is a store page. */
  file_name: string | null;
  /** An app store page (iOS), used instead of a file. */
  store_url: string | null;
  size_bytes: number;
  /** The installer's SHA-256 (64 lower-case hex digits), shown on the download page; null for a store page. */
  sha256: string | null;
}

export interface SoftwareDownloadTable {
  product_key: string;
  platform: SoftwarePlatform;
  count: Generated<number>;
}

export interface SoftwareDownloadRecentTable {
  product_key: string;
  /** A hash of the client's address, never the address itself. */
  client: string;
  counted_at: number;
}

export interface SoftwareTables {
  software_product: SoftwareProductTable;
  software_release: SoftwareReleaseTable;
  software_file: SoftwareFileTable;
  software_download: SoftwareDownloadTable;
  software_download_recent: SoftwareDownloadRecentTable;
}

export type SoftwareProduct = Selectable<SoftwareProductTable>;
export type NewSoftwareProduct = Insertable<SoftwareProductTable>;
export type SoftwareRelease = Selectable<SoftwareReleaseTable>;
export type SoftwareFile = Selectable<SoftwareFileTable>;
