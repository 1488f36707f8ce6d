import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Storage } from '../../storage';
import { PUBLIC_CONTENT_PREFIX } from '../../storage/storage.routes';

// The public files of content/ (images, downloadable drawings, course media) copied into storage,
// where `/content/<folder>/<file>` serves them. Idempotent: an object whose bytes are unchanged is
// not written again. Private files (member-only drawings and lessons) live in content/private/ and
// are stored under `private/`, never served by /content/.

/** Folders of content/ that hold files rather than Markdown, and the storage prefix each goes to. */
const ASSET_FOLDERS: Readonly<Record<string, string>> = {
  images: `${PUBLIC_CONTENT_PREFIX}images/`,
  files: `${PUBLIC_CONTENT_PREFIX}files/`,
  media: `${PUBLIC_CONTENT_PREFIX}media/`,
  private: 'private/',
};

export interface AssetSyncSummary {
  written: number;
  unchanged: number;
}

async function* filesUnder(dir: string, relative = ''): AsyncGenerator<string> {
  let entries;
  try {
    entries = await readdir(path.join(dir, relative), { withFileTypes: true });
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return;
    throw error;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.')) continue;
    const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) yield* filesUnder(dir, child);
    else if (entry.isFile()) yield child;
  }
}

export async function syncContentAssets(storage: Storage, contentDir: string): Promise<AssetSyncSummary> {
  const summary: AssetSyncSummary = { written: 0, unchanged: 0 };
  for (const [folder, prefix] of Object.entries(ASSET_FOLDERS)) {
    const dir = path.join(contentDir, folder);
    for await (const file of filesUnder(dir)) {
      const key = prefix + file;
      const bytes = await readFile(path.join(dir, file));
      const stored = await storage.stat(key);
      if (stored !== undefined && stored.size === bytes.length) {
        const current = await storage.read(key);
        if (current !== undefined && current.equals(bytes)) {
          summary.unchanged += 1;
          continue;
        }
      }
      await storage.put(key, bytes);
      summary.written += 1;
    }
  }
  return summary;
}
