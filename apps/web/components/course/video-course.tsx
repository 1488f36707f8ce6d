import { getTranslations } from 'next-intl/server';
import Link from '@/components/ui/link';
import type { TCourseResponse } from '@xcad/protocol';
import { localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import { formatDuration } from '@/lib/course/progress';
import { CourseView } from './course-view';
import styles from './course.module.css';

/** `/video.html`: the course summary, then the player and the lesson list (client, with progress). */
export async function VideoCourse({ locale, course, selected }: { locale: Locale; course: TCourseResponse; selected: number }) {
  const t = await getTranslations({ locale, namespace: 'course' });
  const freeCount = course.lessons.filter((lesson) => lesson.isFree).length;
  const totalSeconds = course.lessons.reduce((sum, lesson) => sum + lesson.duration, 0);
  return (
    <section aria-labelledby="course-title" className={styles.course}>
      <div className={styles.summary}>
        <div className={styles.summaryText}>
          <h2 id="course-title" className={styles.courseTitle}>
            {course.title}
          </h2>
          <p className={styles.courseDescription}>{course.description}</p>
        </div>
        <ul className={styles.facts}>
          <li>{t('facts.lessons', { count: course.lessons.length })}</li>
          <li>{t('facts.total', { duration: formatDuration(totalSeconds) })}</li>
          <li>{t('facts.free', { count: freeCount })}</li>
          <li>
            <Link href={localizePath('/buy/cadresources.html', locale)} className={styles.factsLink}>
              {t('facts.members')}
            </Link>
          </li>
        </ul>
      </div>
      <CourseView lessons={course.lessons} selected={selected} />
    </section>
  );
}
