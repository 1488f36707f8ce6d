import { createHash } from 'node:crypto';
import type { SoftwarePlatform } from '@xcad/db';
import { PRODUCT, PRODUCT_IDS } from '@xcad/protocol';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { PLATFORMS, platformOrder, platformRuleOf } from './software-platforms';
import { ImportError, type ImportProblem } from '../../lib/import-error';
import { ZSourceDate } from '../../lib/source-dates';

// The release data of the download pages (spec §2, decision 0012), authored as one YAML file per page under
// content/software/<route name>.yml (format: content/software/README.md). This module reads and
// checks files; nothing here touches the database.

export const SOFTWARE_FOLDER = 'software';
const SOFTWARE_SOURCE_PREFIX = `content/${SOFTWARE_FOLDER}/`;

export interface SoftwareFeature {
  title: string;
  text: string;
}

export interface SoftwareRequirement {
  item: string;
  minimum: string;
  recommended: string | null;
}

interface SoftwareFileEntry {
  platform: SoftwarePlatform;
  /** Appended to SOFTWARE_DOWNLOAD_BASE_URL. */
  fileName: string | null;
  /** A store page instead of a file (iOS). */
  storeUrl: string | null;
  sizeBytes: number;
  /** The installer's SHA-256 (lower-case hex); null for a store page. */
  sha256: string | null;
}

export interface ReleaseNotes {
  added: string[];
  improved: string[];
  fixed: string[];
}

interface SoftwareReleaseEntry {
  version: string;
  /** YYYY-MM-DD */
  releasedOn: string;
  notes: ReleaseNotes;
}

/** One checked file: a product and its releases, newest first (the first is the current one). */
export interface SoftwareDocument {
  key: string;
  sourcePath: string;
  sourceHash: string;
  name: string;
  productId: number | null;
  tagline: string;
  buyPath: string | null;
  help: number[];
  features: SoftwareFeature[];
  requirements: SoftwareRequirement[];
  files: SoftwareFileEntry[];
  releases: SoftwareReleaseEntry[];
}

export const KEY_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const VERSION_PATTERN = /^\d{1,4}(?:\.\d{1,4}){1,3}$/;
const FILE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$/;
const MAX_SIZE_BYTES = 8 * 1024 ** 3;

/** Compares dotted versions numerically: 4.10 is newer than 4.9, and 5.0 equals 5.0.0. */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

const ZText = (max: number) =>
  z.string({ error: 'must be text' }).trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

// YAML reads 5.0 as the number 5: a version must be quoted to keep what the author wrote.
const ZVersion = z
  .string({ error: 'must be a quoted version such as "5.0" (YAML reads 5.0 unquoted as the number 5)' })
  .regex(VERSION_PATTERN, 'must be numbers joined by dots, such as "5.0" or "3.4.1"');

const ZNoteList = z.array(ZText(120)).max(8, 'at most 8 items').optional();

const ZPlatformFile = z
  .strictObject({
    file: z
      .string({ error: 'must be a file name' })
      .regex(FILE_NAME_PATTERN, 'must be a plain file name (letters, digits, . _ -)')
      .optional(),
    url: z.url({ error: 'must be an absolute https URL', protocol: /^https$/ }).optional(),
    size: z
      .number({ error: 'must be the size in bytes' })
      .int('must be a whole number of bytes')
      .min(1024, 'must be the size in bytes (at least 1024)')
      .max(MAX_SIZE_BYTES, 'is larger than 8 GB: is it in bytes?'),
    sha256: z
      .string({ error: 'must be the SHA-256 of the installer' })
      .regex(/^[0-9a-fA-F]{64}$/, 'must be the SHA-256 of the installer: 64 hexadecimal digits')
      .optional(),
  })
  .refine(
    (entry) => (entry.file === undefined) !== (entry.url === undefined),
    'needs exactly one of file (an installer) or url (a store page)',
  )
  // The download page shows it so the visitor can check the file: an installer needs it, a store page has none.
  .refine((entry) => (entry.file === undefined) === (entry.sha256 === undefined), {
    message: 'an installer (file) needs its sha256, and a store page (url) has none',
    path: ['sha256'],
  });

const ZProductFile = z.strictObject({
  name: ZText(40),
  product_id: z
    .number({ error: 'must be a product id' })
    .refine((id) => (PRODUCT_IDS as readonly number[]).includes(id), `must be one of the products of spec §9: ${PRODUCT_IDS.join(', ')}`)
    .optional(),
  tagline: ZText(120),
  buy: z
    .string()
    .regex(/^\/buy\/[a-z]+\.html$/, 'must be a purchase page such as /buy/cadeditor.html')
    .optional(),
  help: z
    .array(z.number().int().positive('must be article ids'), { error: 'must be a list of article ids' })
    .max(8, 'at most 8 articles')
    .default([]),
  features: z
    .array(z.strictObject({ title: ZText(24), text: ZText(160) }))
    .min(3, 'list 3 to 8 features')
    .max(8, 'list 3 to 8 features'),
  platforms: z
    .record(z.string(), ZPlatformFile, { error: 'must map platforms to their files' })
    .refine((platforms) => Object.keys(platforms).length > 0, 'must list at least one platform'),
  requirements: z
    .array(z.strictObject({ item: ZText(20), minimum: ZText(120), recommended: ZText(120).optional() }))
    .min(2, 'list 2 to 12 requirements')
    .max(12, 'list 2 to 12 requirements'),
  releases: z
    .array(
      z
        .strictObject({ version: ZVersion, date: ZSourceDate, added: ZNoteList, improved: ZNoteList, fixed: ZNoteList })
        .refine(
          (release) => (release.added?.length ?? 0) + (release.improved?.length ?? 0) + (release.fixed?.length ?? 0) > 0,
          'needs at least one item in added, improved or fixed',
        ),
    )
    .min(1, 'must list the current release')
    .max(20, 'at most 20 releases'),
});

type ProductFile = z.output<typeof ZProductFile>;

function zodProblems(file: string, error: z.ZodError): ImportProblem[] {
  return error.issues.map((issue) => ({
    file,
    field: issue.path.length > 0 ? issue.path.join('.') : 'file',
    message: issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : issue.message,
  }));
}

/** Rules across fields: known platforms with the right kind of file, releases newest first, spec §9. */
function crossProblems(file: string, key: string, data: ProductFile): ImportProblem[] {
  const problems: ImportProblem[] = [];
  const at = (field: string, message: string) => problems.push({ file, field, message });
  for (const [platform, entry] of Object.entries(data.platforms)) {
    const field = `platforms.${platform}`;
    if (!(PLATFORMS as readonly string[]).includes(platform)) {
      at(field, `is not a platform; use one of ${PLATFORMS.join(', ')}`);
      continue;
    }
    const rule = platformRuleOf(platform as SoftwarePlatform);
    if (entry.file !== undefined) {
      if (rule.extensions === null) at(`${field}.file`, `${platform} is installed from its store: give url instead`);
      else if (!rule.extensions.some((extension) => entry.file?.toLowerCase().endsWith(extension))) {
        at(`${field}.file`, `must end with ${rule.extensions.join(' or ')}`);
      }
    }
    if (entry.url !== undefined && (rule.storeOrigin === null || new URL(entry.url).origin !== rule.storeOrigin)) {
      at(
        `${field}.url`,
        rule.storeOrigin === null ? `${platform} is downloaded as a file: give file instead` : `must be a page on ${rule.storeOrigin}`,
      );
    }
  }
  data.releases.forEach((release, index) => {
    const newer = data.releases[index - 1];
    if (newer === undefined) return;
    if (compareVersions(release.version, newer.version) >= 0) {
      at(`releases.${index}.version`, `releases are listed newest first: ${release.version} must be older than ${newer.version} above it`);
    }
    if (release.date > newer.date)
      at(`releases.${index}.date`, `releases are listed newest first: ${release.date} is after ${newer.date} above it`);
  });
  const current = data.releases[0];
  if (data.product_id === PRODUCT.id && current !== undefined && compareVersions(current.version, PRODUCT.version) !== 0) {
    at('releases.0.version', `product ${PRODUCT.id} is version ${PRODUCT.version} (spec §9), not ${current.version}`);
  }
  if (new Set(data.help).size !== data.help.length) at('help', 'lists an article twice');
  if (!KEY_PATTERN.test(key)) at('file', 'the file name must be the page key: lower-case words joined by - (e.g. download-converter.yml)');
  return problems;
}

function toDocument(key: string, sourcePath: string, sourceHash: string, data: ProductFile): SoftwareDocument {
  const files: SoftwareFileEntry[] = Object.entries(data.platforms)
    .map(([platform, entry]) => ({
      platform: platform as SoftwarePlatform,
      fileName: entry.file ?? null,
      storeUrl: entry.url ?? null,
      sizeBytes: entry.size,
      sha256: entry.sha256?.toLowerCase() ?? null,
    }))
    .sort((a, b) => platformOrder(a.platform) - platformOrder(b.platform));
  return {
    key,
    sourcePath,
    sourceHash,
    name: data.name,
    productId: data.product_id ?? null,
    tagline: data.tagline,
    buyPath: data.buy ?? null,
    help: data.help,
    features: data.features,
    requirements: data.requirements.map((row) => ({ item: row.item, minimum: row.minimum, recommended: row.recommended ?? null })),
    files,
    releases: data.releases.map((release) => ({
      version: release.version,
      releasedOn: release.date,
      notes: { added: release.added ?? [], improved: release.improved ?? [], fixed: release.fixed ?? [] },
    })),
  };
}

/** Checks one file (`<key>.yml`); answers the document, or every problem found in it. */
export function parseSoftwareFile(fileName: string, bytes: Uint8Array): SoftwareDocument | ImportProblem[] {
  const sourcePath = `${SOFTWARE_SOURCE_PREFIX}${fileName}`;
  const key = fileName.replace(/\.yml$/, '');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return [{ file: sourcePath, field: 'file', message: 'is not valid UTF-8' }];
  }
  let value: unknown;
  try {
    // The core schema keeps dates as the strings authors wrote; duplicate keys are errors.
    value = parseYaml(text, { schema: 'core', uniqueKeys: true, prettyErrors: true });
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
    return [{ file: sourcePath, field: 'file', message: `is not valid YAML: ${message}` }];
  }
  const result = ZProductFile.safeParse(value);
  if (!result.success) return zodProblems(sourcePath, result.error);
  const problems = crossProblems(sourcePath, key, result.data);
  if (problems.length > 0) return problems;
  const sourceHash = createHash('sha256').update(bytes).digest('hex');
  return toDocument(key, sourcePath, sourceHash, result.data);
}

/** Checks every file together; throws ImportError listing all problems of all files. */
export function checkSoftwareFiles(files: ReadonlyArray<{ name: string; bytes: Uint8Array }>): SoftwareDocument[] {
  const problems: ImportProblem[] = [];
  const documents: SoftwareDocument[] = [];
  for (const file of files) {
    const parsed = parseSoftwareFile(file.name, file.bytes);
    if (Array.isArray(parsed)) problems.push(...parsed);
    else documents.push(parsed);
  }
  // Each installer or store page belongs to one platform of one page: a name used twice is a slip.
  const owners = new Map<string, string>();
  for (const document of documents) {
    for (const entry of document.files) {
      const name = entry.fileName ?? entry.storeUrl ?? '';
      const owner = owners.get(name);
      if (owner === undefined) owners.set(name, `${document.key} ${entry.platform}`);
      else
        problems.push({
          file: document.sourcePath,
          field: `platforms.${entry.platform}`,
          message: `${name} is already the file of ${owner}`,
        });
    }
  }
  if (problems.length > 0) throw new ImportError('software', problems);
  return documents.sort((a, b) => a.key.localeCompare(b.key));
}
