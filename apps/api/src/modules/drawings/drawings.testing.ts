// Test helpers of the drawing library: a small authored library in a temporary content/ folder,
// and signed-in visitors with or without membership of product 203.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Executor } from '@xcad/db';
import { DRAWING_LIBRARY_PRODUCT_ID, SESSION_COOKIE } from '@xcad/protocol';
import { stringify } from 'yaml';
import { openSession } from '../auth/session.service';
import { LIBRARY_FILE } from './drawings.import';

export interface EntrySeed {
  id: number;
  slug: string;
  title: string;
  category: string;
  tags: Array<string | number>;
  description: string;
  format: 'DWG' | 'DXF';
  version: string;
  file: string;
  preview: string;
  member_only: boolean;
  date: string;
  credit: string;
}

export const TEST_CATEGORIES = [
  { slug: 'architecture', name: '建筑', description: '平面图' },
  { slug: 'mechanical', name: '机械' },
];

/** Bytes that look like the start of a DWG or a DXF, distinct per drawing. */
export function drawingBytes(id: number, format: 'DWG' | 'DXF'): Buffer {
  const head = format === 'DWG' ? 'AC1015' : '  0\nSECTION\n  2\nHEADER\n';
  return Buffer.from(`${head}drawing ${id} ${'x'.repeat(200 + (id % 50))}\n`);
}

export function entry(id: number, overrides: Partial<EntrySeed> = {}): EntrySeed {
  const member = overrides.member_only ?? false;
  const format = overrides.format ?? 'DXF';
  const slug = overrides.slug ?? `drawing-${id}`;
  return {
    id,
    slug,
    title: `测试图纸${id}`,
    category: 'architecture',
    tags: ['住宅', '平面图'],
    description: `第 ${id} 张测试图纸的说明。`,
    format,
    version: 'R2000',
    file: `${member ? 'private' : 'files'}/drawings/${id}-${slug}.${format.toLowerCase()}`,
    preview: `images/drawings/${id}-${slug}.webp`,
    member_only: member,
    date: '2026-03-01',
    credit: 'test · fixture · CC0',
    ...overrides,
  };
}

/** Writes library.yml with `entries` and creates every file they name (unless `withoutFiles`). */
export function writeLibrary(
  contentDir: string,
  entries: readonly EntrySeed[],
  options: { categories?: unknown[]; withoutFiles?: readonly string[] } = {},
): void {
  mkdirSync(path.join(contentDir, 'drawings'), { recursive: true });
  writeFileSync(path.join(contentDir, LIBRARY_FILE), stringify({ categories: options.categories ?? TEST_CATEGORIES, drawings: entries }));
  for (const item of entries) {
    for (const [file, bytes] of [
      [item.file, drawingBytes(item.id, item.format)],
      [item.preview, Buffer.from(`RIFF preview ${item.id}`)],
    ] as const) {
      if (options.withoutFiles?.includes(file)) continue;
      mkdirSync(path.dirname(path.join(contentDir, file)), { recursive: true });
      writeFileSync(path.join(contentDir, file), bytes);
    }
  }
}

export function temporaryContentDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'xcad-drawings-'));
}

/**
 * A user with an open session; `membershipExpiry` (epoch seconds) gives them product 203 until
 * then. Answers the Cookie header a browser would send.
 */
export async function visitorCookie(db: Executor, nowSeconds: number, membershipExpiry?: number): Promise<string> {
  const phone = `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const user = await db
    .insertInto('app_user')
    .values({
      username: phone,
      mobile: phone,
      email: null,
      nickname: phone,
      password_hash: null,
      created_at: nowSeconds,
      updated_at: nowSeconds,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const userId = Number(user.id);
  if (membershipExpiry !== undefined) {
    await db
      .insertInto('membership')
      .values({ user_id: userId, product_id: DRAWING_LIBRARY_PRODUCT_ID, auth_value: membershipExpiry, updated_at: nowSeconds })
      .execute();
  }
  const { usertoken } = await openSession(db, userId, { deviceId: 'drawings-test', ip: '127.0.0.1' }, nowSeconds);
  return `${SESSION_COOKIE}=${usertoken}`;
}
