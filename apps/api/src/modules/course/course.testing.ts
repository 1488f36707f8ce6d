// Shared set-up of the course tests: tiny but real MP4 headers for synthetic content folders, and
// signed-in users (with or without a tutorials membership) straight in the database.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Database, Executor } from '@xcad/db';
import type { Kysely } from 'kysely';
import { openSession } from '../auth/session.service';
import { insertUser } from '../auth/user.repository';

function box(type: string, payload: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(8 + payload.length);
  new DataView(bytes.buffer).setUint32(0, bytes.length);
  bytes.set(new TextEncoder().encode(type), 4);
  bytes.set(payload, 8);
  return bytes;
}

/** The smallest file the importer reads as an MP4 of `seconds`: ftyp and moov/mvhd (version 0). */
export function mp4Stub(seconds: number): Uint8Array {
  const mvhd = new Uint8Array(20);
  new DataView(mvhd.buffer).setUint32(12, 1000);
  new DataView(mvhd.buffer).setUint32(16, Math.round(seconds * 1000));
  const ftyp = box('ftyp', new TextEncoder().encode('isomiso2'));
  const moov = box('moov', box('mvhd', mvhd));
  const bytes = new Uint8Array(ftyp.length + moov.length);
  bytes.set(ftyp);
  bytes.set(moov, ftyp.length);
  return bytes;
}

export interface StubLesson {
  id: number;
  slug: string;
  title?: string;
  free: boolean;
  duration?: number;
}

/** A description written over two lines, as authors write them; imported as one paragraph. */
export const STUB_DESCRIPTION_LINES = ['用 LINE 命令配合相对坐标画出一个闭合的矩形轮廓，', '并说明输入 C 闭合与 U 撤销的用法。'] as const;

/** Writes content/course/lessons.yml with `lessons` and each lesson's clip and poster where they belong. */
export function writeCourse(contentDir: string, lessons: readonly StubLesson[], options: { courseTitle?: string } = {}): void {
  const entries = lessons.map((lesson) =>
    [
      `  - id: ${lesson.id}`,
      `    slug: ${lesson.slug}`,
      `    title: ${lesson.title ?? `第${lesson.id}课练习`}`,
      '    lecturer: 周立衡',
      '    lecturer_title: 迅捷CAD高级讲师',
      `    free: ${lesson.free}`,
      `    duration: ${lesson.duration ?? 20}`,
      '    description: |-',
      ...STUB_DESCRIPTION_LINES.map((line) => `      ${line}`),
    ].join('\n'),
  );
  const yaml = [
    'course:',
    '  slug: cad-beginner',
    `  title: ${options.courseTitle ?? 'CAD零基础入门视频课程'}`,
    '  description: |-',
    '    从界面讲到出图，每课一个知识点配一段实操演示，前几课免费观看，',
    '    开通CAD教程会员可观看全部课程。',
    'lessons:',
    ...entries,
    '',
  ].join('\n');
  mkdirSync(path.join(contentDir, 'course'), { recursive: true });
  writeFileSync(path.join(contentDir, 'course/lessons.yml'), yaml);
  for (const lesson of lessons) writeClip(contentDir, lesson);
}

export function writeClip(contentDir: string, lesson: StubLesson, folder: 'media' | 'private' = lesson.free ? 'media' : 'private'): void {
  for (const sub of ['media/course', 'private/course']) mkdirSync(path.join(contentDir, sub), { recursive: true });
  writeFileSync(path.join(contentDir, folder, 'course', `${lesson.slug}.mp4`), mp4Stub(lesson.duration ?? 20));
  writeFileSync(path.join(contentDir, 'media/course', `${lesson.slug}.jpg`), new Uint8Array([0xff, 0xd8, 0xff, 0xd9]));
}

let sequence = 0;

/** A user with an open session; with `memberUntil`, a tutorials (297) membership until then. */
export async function signedInUser(
  db: Kysely<Database> | Executor,
  now: number,
  memberUntil?: number,
): Promise<{ userId: number; usertoken: string; phone: string }> {
  sequence += 1;
  const phone = `1360000${String(sequence).padStart(4, '0')}`;
  const userId = await insertUser(db, { username: phone, mobile: phone, nickname: `136****${phone.slice(-4)}`, passwordHash: null, now });
  if (memberUntil !== undefined) {
    await db.insertInto('membership').values({ user_id: userId, product_id: 297, auth_value: memberUntil, updated_at: now }).execute();
  }
  const { usertoken } = await openSession(db, userId, { deviceId: `course-test-${sequence}`, ip: '127.0.0.1' }, now);
  return { userId, usertoken, phone };
}
