import type { Kysely } from 'kysely';

// Frozen in time: never edit after release, add a new migration instead.
// Decision 0012: the video course lessons and each user's progress. Lessons are authored in
// content/course/lessons.yml and imported idempotently (source_hash); flags are integers 0/1 so
// SQLite and PostgreSQL read them alike.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('course')
    .addColumn('slug', 'text', (column) => column.primaryKey())
    .addColumn('title', 'text', (column) => column.notNull())
    .addColumn('description', 'text', (column) => column.notNull())
    .addColumn('source_hash', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute();

  // Lesson ids are the authored ones: they appear in the video URLs.
  await db.schema
    .createTable('course_lesson')
    .addColumn('id', 'bigint', (column) => column.primaryKey())
    .addColumn('course_slug', 'text', (column) => column.notNull().references('course.slug').onDelete('cascade'))
    .addColumn('position', 'integer', (column) => column.notNull())
    .addColumn('slug', 'text', (column) => column.notNull().unique())
    .addColumn('title', 'text', (column) => column.notNull())
    .addColumn('lecturer', 'text', (column) => column.notNull())
    .addColumn('lecturer_title', 'text', (column) => column.notNull())
    .addColumn('description', 'text', (column) => column.notNull())
    .addColumn('duration_seconds', 'integer', (column) => column.notNull())
    .addColumn('is_free', 'integer', (column) => column.notNull())
    .addColumn('video_key', 'text', (column) => column.notNull())
    .addColumn('poster_path', 'text', (column) => column.notNull())
    .addColumn('source_hash', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .addUniqueConstraint('course_lesson_course_position_key', ['course_slug', 'position'])
    .execute();

  await db.schema
    .createTable('course_progress')
    .addColumn('user_id', 'bigint', (column) => column.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('lesson_id', 'bigint', (column) => column.notNull().references('course_lesson.id').onDelete('cascade'))
    .addColumn('position_seconds', 'integer', (column) => column.notNull())
    .addColumn('completed', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('course_progress_pkey', ['user_id', 'lesson_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['course_progress', 'course_lesson', 'course']) await db.schema.dropTable(table).execute();
}
