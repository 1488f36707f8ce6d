import Link from '@/components/ui/link';
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { Breadcrumb } from '@/components/page/breadcrumb';
import { ArrowRightIcon, BasicsGlyph, CourseGlyph, MasterGlyph } from '@/components/ui/icons';
import { loadCourse, newestTutorials } from '@/lib/course/course-data';
import { formatDuration } from '@/lib/course/progress';
import type { ListPost } from '@/lib/content/lists';
import { localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import styles from './resources.module.css';

// spec §2 `/resources.html` (CAD教程): the tutorials hub. Three ways in: the zero-basics tutorials
// (/basics.html) and the beginner-to-master tutorials (/master.html) with their newest articles
// from the content API, and the video course (/video.html) with a few lessons and their posters.

const ARTICLES_PER_SECTION = 4;
const LESSONS_SHOWN = 4;

async function ArticleSection({
  locale,
  slug,
  icon,
  title,
  text,
}: {
  locale: Locale;
  slug: 'basics' | 'master';
  icon: ReactNode;
  title: string;
  text: string;
}) {
  const [t, newest] = await Promise.all([getTranslations({ locale, namespace: 'course' }), newestTutorials(slug, ARTICLES_PER_SECTION)]);
  const sectionHref = localizePath(`/${slug}.html`, locale);
  return (
    <section className={styles.section} aria-labelledby={`hub-${slug}`} data-testid={`hub-${slug}`}>
      <header className={styles.sectionHead}>
        <span className={styles.sectionIcon}>{icon}</span>
        <div className={styles.sectionIntro}>
          <h2 id={`hub-${slug}`} className={styles.sectionTitle}>
            <Link href={sectionHref}>{title}</Link>
          </h2>
          <p className={styles.sectionText}>{text}</p>
        </div>
      </header>
      {newest === null ? (
        <p className={styles.unavailable}>{t('hub.unavailable')}</p>
      ) : (
        <>
          <h3 className={styles.listLabel}>{t('hub.newest')}</h3>
          <ul className={styles.articles}>
            {newest.posts.map((post: ListPost) => (
              <li key={post.id}>
                <Link href={localizePath(`/${post.id}.html`, locale)} className={styles.article} data-testid="hub-article">
                  <span className={styles.articleTitle}>{post.title}</span>
                  {post.date !== '' && <time dateTime={post.date}>{post.date}</time>}
                </Link>
              </li>
            ))}
          </ul>
          <Link href={sectionHref} className={styles.more}>
            {t('hub.allArticles', { count: newest.total })}
            <ArrowRightIcon size={16} />
          </Link>
        </>
      )}
    </section>
  );
}

async function VideoSection({ locale }: { locale: Locale }) {
  const [t, load] = await Promise.all([getTranslations({ locale, namespace: 'course' }), loadCourse()]);
  const videoHref = localizePath('/video.html', locale);
  const lessons = load.state === 'found' ? load.course.lessons : [];
  const freeCount = lessons.filter((lesson) => lesson.isFree).length;
  return (
    <section className={`${styles.section} ${styles.videoSection}`} aria-labelledby="hub-video" data-testid="hub-video">
      <header className={styles.sectionHead}>
        <span className={styles.sectionIcon}>
          <CourseGlyph size={26} />
        </span>
        <div className={styles.sectionIntro}>
          <h2 id="hub-video" className={styles.sectionTitle}>
            <Link href={videoHref}>{t('hub.videoTitle')}</Link>
          </h2>
          <p className={styles.sectionText}>{t('hub.videoText', { free: freeCount })}</p>
        </div>
        <div className={styles.videoActions}>
          <Link href={videoHref} className={styles.primaryLink}>
            {t('hub.allLessons')}
          </Link>
          <Link href={localizePath('/buy/cadresources.html', locale)} className={styles.secondaryLink}>
            {t('hub.buy')}
          </Link>
        </div>
      </header>
      {load.state !== 'found' ? (
        <p className={styles.unavailable}>{t('unavailable')}</p>
      ) : (
        <ul className={styles.lessons}>
          {lessons.slice(0, LESSONS_SHOWN).map((lesson) => (
            <li key={lesson.id}>
              <Link
                href={`${videoHref}?lesson=${lesson.position}`}
                className={styles.lesson}
                aria-label={t('hub.lessonLabel', {
                  number: lesson.position,
                  title: lesson.title,
                  duration: formatDuration(lesson.duration),
                })}
                data-testid="hub-lesson"
              >
                <span className={styles.posterBox}>
                  {/* eslint-disable-next-line @next/next/no-img-element -- posters are served by the API's storage */}
                  <img src={lesson.posterUrl} alt="" width={640} height={360} loading="lazy" decoding="async" className={styles.poster} />
                  <span className={styles.duration}>{formatDuration(lesson.duration)}</span>
                  <span className={lesson.isFree ? styles.badgeFree : styles.badgeMember}>{lesson.isFree ? t('free') : t('members')}</span>
                </span>
                <span className={styles.lessonNumber}>{t('lessonNumber', { number: lesson.position })}</span>
                <span className={styles.lessonTitle}>{lesson.title}</span>
                <span className={styles.lessonLecturer}>{lesson.lecturer}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export async function ResourcesHub({ locale }: { locale: Locale }) {
  const [t, pages] = await Promise.all([getTranslations({ locale, namespace: 'course' }), getTranslations({ locale, namespace: 'pages' })]);
  return (
    <div className={styles.hub}>
      <header className={styles.hero}>
        <div className="container">
          <Breadcrumb locale={locale} name="resources" />
          <h1 className={styles.title}>{pages('resources.title')}</h1>
          <p className={styles.intro}>{t('hub.intro')}</p>
        </div>
      </header>
      <div className={`container ${styles.body}`}>
        <div className={styles.columns}>
          <ArticleSection
            locale={locale}
            slug="basics"
            icon={<BasicsGlyph size={26} />}
            title={t('hub.basicsTitle')}
            text={t('hub.basicsText')}
          />
          <ArticleSection
            locale={locale}
            slug="master"
            icon={<MasterGlyph size={26} />}
            title={t('hub.masterTitle')}
            text={t('hub.masterText')}
          />
        </div>
        <VideoSection locale={locale} />
      </div>
    </div>
  );
}
