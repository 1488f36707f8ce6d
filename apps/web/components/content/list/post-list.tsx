import Link from '@/components/ui/link';
import { getTranslations } from 'next-intl/server';
import type { ListPost } from '@/lib/content/lists';
import { localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import styles from './list.module.css';

/** Articles as title, excerpt and date, each linking to its article page `/{id}.html` (spec §2). */
export async function PostList({ posts, locale, compact = false }: { posts: readonly ListPost[]; locale: Locale; compact?: boolean }) {
  const t = await getTranslations({ locale, namespace: 'contentList' });
  if (posts.length === 0) return <p className={styles.empty}>{t('empty')}</p>;
  return (
    <ul className={compact ? `${styles.posts} ${styles.compact}` : styles.posts} data-testid="post-list">
      {posts.map((post) => (
        <li key={post.id} className={styles.post}>
          <Link className={styles.postLink} href={localizePath(`/${post.id}.html`, locale)} data-testid="list-post">
            <span className={styles.postTitle}>{post.title}</span>
            {!compact && post.excerpt !== '' && <span className={styles.postExcerpt}>{post.excerpt}</span>}
          </Link>
          {post.date !== '' && (
            <time className={styles.postDate} dateTime={post.date}>
              {post.date}
            </time>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The friendly state shown when the content API cannot be reached. */
export async function ContentUnavailable({ locale }: { locale: Locale }) {
  const t = await getTranslations({ locale, namespace: 'contentList' });
  return (
    <p className={styles.unavailable} role="status" data-testid="content-unavailable">
      {t('unavailable')}
    </p>
  );
}
