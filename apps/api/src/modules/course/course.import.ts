import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Database, NewCourseLesson } from '@xcad/db';
import type { Kysely } from 'kysely';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { PUBLIC_CONTENT_PREFIX } from '../../storage/storage.routes';
import type { SiteImporter } from '../site-deps';
import {
  deleteCoursesExcept,
  deleteLessonsExcept,
  insertCourse,
  insertLesson,
  listAllLessons,
  listCourses,
  parkLessons,
  updateCourse,
  updateLesson,
  type CourseRow,
} from './course.repository';
import { mp4DurationSeconds } from './mp4-duration';
import { ImportError, type ImportProblem } from '../../lib/import-error';

// The importer of the video course (decision 0012): content/course/lessons.yml becomes the course and
// its lessons. Every lesson is checked first (fields, its clip in the right folder, the clip's
// real duration, its poster); then one transaction writes what changed. A lesson whose fields and
// files are unchanged (same SHA-256) is not written again. Free lessons' clips live in
// content/media/course/ (public: /content/media/course/...), member lessons' in
// content/private/course/ (stored under private/, served only after the membership check).

const COURSE_FILE = 'course/lessons.yml';
const SOURCE = `content/${COURSE_FILE}`;
const PUBLIC_FOLDER = 'media/course';
const PRIVATE_FOLDER = 'private/course';
/** A clip's real duration may differ from the authored whole seconds by rounding only. */
const DURATION_TOLERANCE_SECONDS = 1;

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const text = (min: number, max: number) =>
  z
    .string({ error: 'must be text' })
    .trim()
    .refine((value) => [...value].length >= min, { error: `must have at least ${min} character(s)` })
    .refine((value) => [...value].length <= max, { error: `must have at most ${max} characters` });

const ZLessonsFile = z.strictObject({
  course: z.strictObject({
    slug: z.string().regex(SLUG, 'must be lower-case ASCII words joined by -'),
    title: text(2, 40),
    description: text(20, 400),
  }),
  lessons: z
    .array(
      z.strictObject({
        id: z
          .number({ error: 'must be a positive integer' })
          .int('must be a positive integer')
          .positive('must be a positive integer')
          .max(1_000_000),
        slug: z.string({ error: 'must be text' }).regex(SLUG, 'must be lower-case ASCII words joined by -'),
        title: text(2, 40),
        lecturer: text(2, 20),
        lecturer_title: text(2, 40),
        free: z.boolean({ error: 'must be true or false' }),
        duration: z
          .number({ error: 'must be whole seconds' })
          .int('must be whole seconds')
          .min(1, 'must be at least 1 second')
          .max(3600, 'must be at most 3600 seconds'),
        description: text(20, 400),
      }),
    )
    .min(1, 'must list at least one lesson'),
});

interface CourseLessonDocument extends NewCourseLesson {
  /** Path of the clip under content/, for messages. */
  clipPath: string;
}

interface CourseSource {
  course: CourseRow;
  lessons: CourseLessonDocument[];
}

async function readOptional(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (error) {
    if (error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'EISDIR')) return undefined;
    throw error;
  }
}

const sha256 = (data: Uint8Array | string): string => createHash('sha256').update(data).digest('hex');

const CJK = /[\u2e80-\u9fff\uff00-\uffef\u3000-\u303f]/;

/**
 * A description written over several lines (a `|-` block) as one paragraph: lines of Chinese join
 * without a space, as Chinese has none between words; Latin words keep one.
 */
export function joinLines(value: string): string {
  return value
    .split(/\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .reduce((joined, line) => {
      if (joined === '') return line;
      return CJK.test(joined.slice(-1)) || CJK.test(line[0] ?? '') ? `${joined}${line}` : `${joined} ${line}`;
    }, '');
}

/** Reads and checks content/course/; undefined when there is no lessons.yml. */
async function readCourseSource(contentDir: string): Promise<CourseSource | undefined> {
  const yamlBytes = await readOptional(path.join(contentDir, COURSE_FILE));
  if (yamlBytes === undefined) return undefined;
  let raw: unknown;
  try {
    raw = parseYaml(yamlBytes.toString('utf8'), { schema: 'core', uniqueKeys: true });
  } catch (error) {
    throw new ImportError('course', [
      {
        file: SOURCE,
        field: 'file',
        message: `is not valid YAML: ${error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)}`,
      },
    ]);
  }
  const parsed = ZLessonsFile.safeParse(raw);
  if (!parsed.success) {
    throw new ImportError(
      'course',
      parsed.error.issues.map((issue) => ({
        file: SOURCE,
        field: issue.path.length > 0 ? issue.path.join('.') : 'file',
        message: issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : issue.message,
      })),
    );
  }
  const { course, lessons } = parsed.data;
  const problems: ImportProblem[] = [];
  const at = (index: number, field: string, message: string) =>
    problems.push({ file: SOURCE, field: `lessons.${index}.${field}`, message });
  const seenIds = new Map<number, number>();
  const seenSlugs = new Map<string, number>();
  const documents: CourseLessonDocument[] = [];

  for (const [index, lesson] of lessons.entries()) {
    const sameId = seenIds.get(lesson.id);
    if (sameId !== undefined) at(index, 'id', `${lesson.id} is also the id of lessons.${sameId}`);
    seenIds.set(lesson.id, index);
    const sameSlug = seenSlugs.get(lesson.slug);
    if (sameSlug !== undefined) at(index, 'slug', `"${lesson.slug}" is also the slug of lessons.${sameSlug}`);
    seenSlugs.set(lesson.slug, index);

    const publicClip = `${PUBLIC_FOLDER}/${lesson.slug}.mp4`;
    const privateClip = `${PRIVATE_FOLDER}/${lesson.slug}.mp4`;
    const [clipPath, otherPath] = lesson.free ? [publicClip, privateClip] : [privateClip, publicClip];
    const clip = await readOptional(path.join(contentDir, clipPath));
    const other = await readOptional(path.join(contentDir, otherPath));
    const poster = await readOptional(path.join(contentDir, PUBLIC_FOLDER, `${lesson.slug}.jpg`));
    if (clip === undefined)
      at(index, 'free', `${lesson.free ? 'a free' : 'a member'} lesson's clip must be content/${clipPath}; it is missing`);
    // A member clip in the public folder would be served to anyone by /content/.
    if (other !== undefined)
      at(
        index,
        'free',
        `content/${otherPath} must not exist for ${lesson.free ? 'a free' : 'a member'} lesson (move the clip to content/${clipPath})`,
      );
    if (poster === undefined) at(index, 'slug', `the poster content/${PUBLIC_FOLDER}/${lesson.slug}.jpg is missing`);
    if (clip === undefined || poster === undefined) continue;
    const seconds = mp4DurationSeconds(clip);
    if (seconds === undefined) {
      at(index, 'free', `content/${clipPath} is not an MP4 with a movie header`);
      continue;
    }
    if (Math.abs(seconds - lesson.duration) > DURATION_TOLERANCE_SECONDS) {
      at(
        index,
        'duration',
        `is ${lesson.duration} s but the clip lasts ${seconds.toFixed(2)} s (scripts/content/make-course-clips.mjs writes it)`,
      );
    }
    const fields = {
      id: lesson.id,
      course_slug: course.slug,
      position: index + 1,
      slug: lesson.slug,
      title: lesson.title,
      lecturer: lesson.lecturer,
      lecturer_title: lesson.lecturer_title,
      description: joinLines(lesson.description),
      duration_seconds: lesson.duration,
      is_free: lesson.free ? 1 : 0,
      video_key: lesson.free ? `${PUBLIC_CONTENT_PREFIX}${publicClip}` : privateClip,
      poster_path: `/${PUBLIC_CONTENT_PREFIX}${PUBLIC_FOLDER}/${lesson.slug}.jpg`,
    } satisfies Omit<NewCourseLesson, 'source_hash' | 'updated_at'>;
    documents.push({
      ...fields,
      source_hash: sha256(`${JSON.stringify(fields)}\n${sha256(clip)}\n${sha256(poster)}`),
      updated_at: 0,
      clipPath: `content/${clipPath}`,
    });
  }
  if (problems.length > 0) throw new ImportError('course', problems);
  const description = joinLines(course.description);
  return {
    course: { slug: course.slug, title: course.title, description, source_hash: sha256(JSON.stringify({ ...course, description })) },
    lessons: documents,
  };
}

export interface CourseImportSummary {
  lessons: number;
  written: number;
  unchanged: number;
  deleted: number;
  courseWritten: boolean;
}

/** Imports content/course/lessons.yml; throws ImportError (nothing written) when refused. */
export async function importCourse(db: Kysely<Database>, contentDir: string, now: number): Promise<CourseImportSummary> {
  const source = await readCourseSource(contentDir);
  if (source === undefined) return { lessons: 0, written: 0, unchanged: 0, deleted: 0, courseWritten: false };
  return db.transaction().execute(async (trx) => {
    const courses = await listCourses(trx);
    const storedCourse = courses.find((course) => course.slug === source.course.slug);
    let deleted = await deleteCoursesExcept(trx, [source.course.slug]);
    let courseWritten = courses.length !== (storedCourse === undefined ? 0 : 1);
    if (storedCourse === undefined) {
      await insertCourse(trx, source.course, now);
      courseWritten = true;
    } else if (storedCourse.source_hash !== source.course.source_hash) {
      await updateCourse(trx, source.course, now);
      courseWritten = true;
    }

    deleted += await deleteLessonsExcept(
      trx,
      source.lessons.map((lesson) => lesson.id),
    );
    const stored = new Map((await listAllLessons(trx)).map((lesson) => [Number(lesson.id), lesson]));
    const changed = source.lessons.filter((lesson) => stored.get(lesson.id)?.source_hash !== lesson.source_hash);
    // Positions are unique per course: lessons that move step aside before anyone takes their place.
    await parkLessons(
      trx,
      changed.filter((lesson) => stored.has(lesson.id)).map((lesson) => lesson.id),
    );
    for (const lesson of changed) {
      const { clipPath: _clipPath, ...row } = lesson;
      const values = { ...row, updated_at: now };
      if (stored.has(lesson.id)) await updateLesson(trx, values);
      else await insertLesson(trx, values);
    }
    return {
      lessons: source.lessons.length,
      written: changed.length,
      unchanged: source.lessons.length - changed.length,
      deleted,
      courseWritten,
    };
  });
}

function formatCourseSummary(summary: CourseImportSummary): string | undefined {
  if (summary.written === 0 && summary.deleted === 0 && !summary.courseWritten) return undefined;
  return `${summary.lessons} lesson(s): ${summary.written} written, ${summary.unchanged} unchanged, ${summary.deleted} deleted${summary.courseWritten ? '; course details written' : ''}`;
}

export const courseImporter: SiteImporter = {
  name: 'course',
  run: async (db, contentDir) => formatCourseSummary(await importCourse(db, contentDir, Math.floor(Date.now() / 1000))),
};
