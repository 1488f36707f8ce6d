import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '@xcad/db';
import type { Kysely } from 'kysely';
import type { SiteImporter } from '../site-deps';
import { deleteProducts, insertProduct, listProductHashes, type ProductRows } from './software.repository';
import { checkSoftwareFiles, SOFTWARE_FOLDER, type SoftwareDocument } from './software-source';
import { ImportError } from '../../lib/import-error';

// The importer of the download pages' release data (spec §2, decision 0012): content/software/*.yml become
// software_product, software_release and software_file rows. Every file is checked before anything
// is written; one transaction writes the run; an unchanged file (same SHA-256) is not written
// again; download counters (software_download) are never reset.

export interface SoftwareImportSummary {
  files: number;
  written: number;
  unchanged: number;
  removed: number;
}

function rowsOf(document: SoftwareDocument): ProductRows {
  const current = document.releases[0];
  if (current === undefined) throw new Error(`${document.sourcePath} has no release`);
  return {
    product: {
      key: document.key,
      name: document.name,
      product_id: document.productId,
      tagline: document.tagline,
      version: current.version,
      released_on: current.releasedOn,
      features_json: JSON.stringify(document.features),
      requirements_json: JSON.stringify(document.requirements),
      help_json: JSON.stringify(document.help),
      buy_path: document.buyPath,
      source_hash: document.sourceHash,
    },
    releases: document.releases.map((release) => ({
      product_key: document.key,
      version: release.version,
      released_on: release.releasedOn,
      notes_json: JSON.stringify(release.notes),
    })),
    files: document.files.map((file) => ({
      product_key: document.key,
      platform: file.platform,
      file_name: file.fileName,
      store_url: file.storeUrl,
      size_bytes: file.sizeBytes,
      sha256: file.sha256,
    })),
  };
}

/** Reads `<contentDir>/software/*.yml`; null when the folder does not exist. */
async function readSoftwareFiles(contentDir: string): Promise<Array<{ name: string; bytes: Uint8Array }> | null> {
  const folder = path.join(contentDir, SOFTWARE_FOLDER);
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const yamlNames = names.filter((name) => name.endsWith('.yml')).sort();
  const misnamed = names.filter((name) => name.endsWith('.yaml'));
  if (misnamed.length > 0) {
    throw new ImportError(
      'software',
      misnamed.map((name) => ({
        file: `content/${SOFTWARE_FOLDER}/${name}`,
        field: 'file',
        message: 'name the file .yml (its key is the name before .yml)',
      })),
    );
  }
  return Promise.all(yamlNames.map(async (name) => ({ name, bytes: new Uint8Array(await readFile(path.join(folder, name))) })));
}

/**
 * Imports content/software/. Throws ImportError (nothing written) when any file is
 * refused. A missing folder imports nothing and removes nothing.
 */
export async function importSoftware(db: Kysely<Database>, contentDir: string): Promise<SoftwareImportSummary> {
  const files = await readSoftwareFiles(contentDir);
  if (files === null) return { files: 0, written: 0, unchanged: 0, removed: 0 };
  const documents = checkSoftwareFiles(files);
  return db.transaction().execute(async (trx) => {
    const stored = new Map((await listProductHashes(trx)).map((row) => [row.key, row.source_hash]));
    const changed = documents.filter((document) => stored.get(document.key) !== document.sourceHash);
    const keys = new Set(documents.map((document) => document.key));
    const removed = [...stored.keys()].filter((key) => !keys.has(key));
    await deleteProducts(trx, [...removed, ...changed.map((document) => document.key)]);
    for (const document of changed) await insertProduct(trx, rowsOf(document));
    return { files: documents.length, written: changed.length, unchanged: documents.length - changed.length, removed: removed.length };
  });
}

function formatSoftwareSummary(summary: SoftwareImportSummary): string {
  return `${summary.written} product(s) written, ${summary.unchanged} unchanged, ${summary.removed} removed`;
}

export const softwareImporter: SiteImporter = {
  name: 'software',
  run: async (db, contentDir) => {
    const summary = await importSoftware(db, contentDir);
    return summary.written > 0 || summary.removed > 0 ? formatSoftwareSummary(summary) : undefined;
  },
};
