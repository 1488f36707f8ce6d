import { existsSync, mkdtempSync, readFileSync, rmSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repositoryRoot } from '@xcad/db';
import { createTestDatabase, type TestDatabaseHandle } from '@xcad/db/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { courseImporter, importCourse } from './course.import';
import { upsertProgress } from './course.repository';
import { signedInUser, STUB_DESCRIPTION_LINES, writeClip, writeCourse } from './course.testing';
import { mp4DurationSeconds } from './mp4-duration';
import { ImportError } from '../../lib/import-error';

// Decision 0012: content/course/lessons.yml and the clips beside it -> course and course_lesson, checked
// first, one transaction, idempotent; progress survives re-imports and goes with a deleted lesson.

const NOW = 1_800_000_000;
let database: TestDatabaseHandle;
let contentDir: string;

beforeEach(async () => {
  database = await createTestDatabase();
  contentDir = mkdtempSync(path.join(os.tmpdir(), 'xcad-course-'));
});

afterEach(async () => {
  await database.destroy();
  rmSync(contentDir, { recursive: true, force: true });
});

async function lessons() {
  return database.db.selectFrom('course_lesson').selectAll().orderBy('position').execute();
}

async function expectRefused(pattern: RegExp): Promise<void> {
  const before = await lessons();
  const error = await importCourse(database.db, contentDir, NOW + 60).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ImportError);
  expect((error as ImportError).problems.map((problem) => `${problem.field}: ${problem.message}`).join('\n')).toMatch(pattern);
  expect(await lessons()).toEqual(before);
}

const THREE = [
  { id: 1, slug: 'interface', free: true },
  { id: 2, slug: 'line', free: true, duration: 18 },
  { id: 3, slug: 'circle', free: false },
];

describe('the repository content/course', () => {
  it('imports 20 lessons, the first three free, with durations their clips really have; a second run changes nothing', async () => {
    const content = path.join(repositoryRoot, 'content');
    const summary = await importCourse(database.db, content, NOW);
    expect(summary).toMatchObject({ lessons: 20, written: 20, deleted: 0, courseWritten: true });
    const rows = await lessons();
    expect(rows.map((row) => row.position)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    expect(rows.filter((row) => row.is_free === 1).map((row) => row.position)).toEqual([1, 2, 3]);
    for (const row of rows) {
      const file =
        row.is_free === 1 ? path.join(content, 'media/course', `${row.slug}.mp4`) : path.join(content, 'private/course', `${row.slug}.mp4`);
      expect(row.video_key).toBe(row.is_free === 1 ? `content/media/course/${row.slug}.mp4` : `private/course/${row.slug}.mp4`);
      expect(Math.abs((mp4DurationSeconds(readFileSync(file)) ?? 0) - row.duration_seconds)).toBeLessThanOrEqual(1);
      expect(row.duration_seconds).toBeGreaterThanOrEqual(12);
      expect(row.duration_seconds).toBeLessThanOrEqual(25);
      // Descriptions are one paragraph: no line breaks, no stray space between Chinese sentences.
      expect(row.description).not.toMatch(/\n|。 /);
      expect(existsSync(path.join(content, row.poster_path.replace(/^\/content\//, '')))).toBe(true);
    }
    expect(
      await courseImporter.run(database.db, content, {
        put: unexpected,
        stat: unexpected,
        read: unexpected,
        stream: unexpected,
        delete: unexpected,
      }),
    ).toBeUndefined();
  });
});

function unexpected(): never {
  throw new Error('the course importer must not touch storage');
}

describe('importCourse', () => {
  it('writes only what changed, joins multi-line descriptions and keeps progress across re-imports', async () => {
    writeCourse(contentDir, THREE);
    expect(await importCourse(database.db, contentDir, NOW)).toMatchObject({ written: 3, unchanged: 0, courseWritten: true });
    const first = await lessons();
    expect(first[0]?.description).toBe(STUB_DESCRIPTION_LINES.join(''));
    expect(first[1]).toMatchObject({ duration_seconds: 18, is_free: 1, poster_path: '/content/media/course/line.jpg' });

    const { userId } = await signedInUser(database.db, NOW);
    await upsertProgress(database.db, { userId, lessonId: 2, position: 9, completed: false, now: NOW });

    writeCourse(contentDir, [THREE[0]!, { ...THREE[1]!, title: '坐标输入与直线' }, THREE[2]!]);
    expect(await importCourse(database.db, contentDir, NOW + 60)).toMatchObject({
      written: 1,
      unchanged: 2,
      deleted: 0,
      courseWritten: false,
    });
    const second = await lessons();
    expect(second[1]).toMatchObject({ title: '坐标输入与直线', updated_at: NOW + 60 });
    expect(second[0]?.updated_at).toBe(NOW);
    const progress = await database.db.selectFrom('course_progress').selectAll().execute();
    expect(progress).toMatchObject([{ lesson_id: 2, position_seconds: 9 }]);

    expect(await importCourse(database.db, contentDir, NOW + 120)).toMatchObject({ written: 0, deleted: 0, courseWritten: false });
  });

  it('reorders lessons without tripping the unique position, and deletes a removed lesson with its progress', async () => {
    writeCourse(contentDir, THREE);
    await importCourse(database.db, contentDir, NOW);
    const { userId } = await signedInUser(database.db, NOW);
    await upsertProgress(database.db, { userId, lessonId: 3, position: 4, completed: true, now: NOW });

    writeCourse(contentDir, [THREE[1]!, THREE[0]!]);
    rmSync(path.join(contentDir, 'private/course/circle.mp4'));
    expect(await importCourse(database.db, contentDir, NOW + 60)).toMatchObject({ lessons: 2, written: 2, deleted: 1 });
    expect((await lessons()).map((row) => [row.id, row.position])).toEqual([
      [2, 1],
      [1, 2],
    ]);
    expect(await database.db.selectFrom('course_progress').selectAll().execute()).toEqual([]);
  });

  it('moves a lesson from free to members when its clip moves to content/private', async () => {
    writeCourse(contentDir, THREE);
    await importCourse(database.db, contentDir, NOW);
    writeCourse(contentDir, [THREE[0]!, { ...THREE[1]!, free: false }, THREE[2]!]);
    rmSync(path.join(contentDir, 'media/course/line.mp4'));
    await importCourse(database.db, contentDir, NOW + 60);
    expect((await lessons())[1]).toMatchObject({ is_free: 0, video_key: 'private/course/line.mp4' });
  });

  it('refuses a member lesson whose clip sits in the public folder, and writes nothing', async () => {
    writeCourse(contentDir, THREE);
    await importCourse(database.db, contentDir, NOW);
    writeClip(contentDir, THREE[2]!, 'media');
    await expectRefused(/lessons\.2\.free: content\/media\/course\/circle\.mp4 must not exist for a member lesson/);
  });

  it('refuses a duration that is not the clip’s, a missing clip or poster, duplicates and bad fields, all at once', async () => {
    writeCourse(contentDir, [...THREE, { id: 4, slug: 'rect', free: false }]);
    await importCourse(database.db, contentDir, NOW);

    const yaml = path.join(contentDir, 'course/lessons.yml');
    writeFileSync(yaml, readFileSync(yaml, 'utf8').replace('duration: 18', 'duration: 25').replace('slug: rect', 'slug: circle'));
    rmSync(path.join(contentDir, 'media/course/interface.jpg'));
    renameSync(path.join(contentDir, 'private/course/rect.mp4'), path.join(contentDir, 'private/course/rect-old.mp4'));
    await expectRefused(
      /lessons\.0\.slug: the poster content\/media\/course\/interface\.jpg is missing[\s\S]*lessons\.1\.duration: is 25 s but the clip lasts 18\.00 s[\s\S]*lessons\.3\.slug: "circle" is also the slug of lessons\.2/,
    );

    writeCourse(contentDir, [{ ...THREE[0]!, duration: 0 }]);
    await expectRefused(/lessons\.0\.duration: must be at least 1 second/);
    writeFileSync(yaml, 'course:\n  slug: Bad Slug\nlessons: []\n');
    await expectRefused(/course\.slug: must be lower-case[\s\S]*course\.title[\s\S]*lessons: must list at least one lesson/);
    writeFileSync(yaml, 'course: [unclosed\n');
    await expectRefused(/file: is not valid YAML/);
  });

  it('imports nothing and removes nothing when there is no lessons.yml', async () => {
    expect(await importCourse(database.db, contentDir, NOW)).toEqual({
      lessons: 0,
      written: 0,
      unchanged: 0,
      deleted: 0,
      courseWritten: false,
    });
    expect(
      await courseImporter.run(database.db, contentDir, {
        put: unexpected,
        stat: unexpected,
        read: unexpected,
        stream: unexpected,
        delete: unexpected,
      }),
    ).toBeUndefined();
  });
});
