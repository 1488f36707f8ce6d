import Link from '@/components/ui/link';
import { getTranslations } from 'next-intl/server';
import { localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import { courseLessons } from './list-data';
import { ContentUnavailable } from './post-list';
import styles from './list.module.css';

/** `/basics.html` and `/master.html`: the course's tutorial articles as numbered lessons, in course order. */
export async function CourseList({ locale, slug }: { locale: Locale; slug: 'basics' | 'master' }) {
  const [t, load] = await Promise.all([getTranslations({ locale, namespace: 'contentList' }), courseLessons(slug)]);
  if (load.state !== 'found') return <ContentUnavailable locale={locale} />;
  if (load.value.length === 0) return <p className={styles.empty}>{t('empty')}</p>;
  return (
    <section data-testid="course-list">
      <p className={styles.courseCount}>{t('lessonCount', { count: load.value.length })}</p>
      <ol className={styles.lessons}>
        {load.value.map((lesson, index) => (
          <li key={lesson.id}>
            <Link className={styles.lesson} href={localizePath(`/${lesson.id}.html`, locale)} data-testid="course-lesson">
              <span className={styles.lessonNumber}>{t('lesson', { number: index + 1 })}</span>
              <span className={styles.lessonBody}>
                <span className={styles.postTitle} data-testid="course-lesson-title">
                  {lesson.title}
                </span>
                {lesson.excerpt !== '' && <span className={styles.postExcerpt}>{lesson.excerpt}</span>}
              </span>
            </Link>
          </li>
        ))}
      </ol>
    </section>
  );
}
