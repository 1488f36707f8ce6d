import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { notFound } from 'next/navigation';
import { dailypicTagById, dailypicTags, tagPage, type Load } from '@/components/dailypic/dailypic-data';
import { DailypicGrid, DailypicUnavailable } from '@/components/dailypic/dailypic-grid';
import { DailypicTagBar } from '@/components/dailypic/dailypic-index';
import styles from '@/components/dailypic/dailypic.module.css';
import { PageFrame } from '@/components/page/page-frame';
import { resolveRoute } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';
import { ALL_PICTURES_TAG_ID, dailypicTagPath } from '@/lib/content/dailypics';
import { pageNumberOf } from '@/lib/content/lists';
import { localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import { routeMetadata } from '@/lib/metadata';

// spec §2 `/dailypics/{id?}/{page}`, read as: page {page} of the daily pictures of tag {id}
// (the tag chips of /dailypic.html and of a picture link here), newest first, twelve a page;
// tag 0 stands for every picture, since the spec makes the id optional. An unknown tag or a
// page past the end is a 404. (A picture's own page is `/dailypics/{id}`, one segment.)
const ROUTE = 'dailypics-id-page';

async function tagRoute(props: RouteProps) {
  const route = await resolveRoute(ROUTE, props);
  const tagId = Number(route.params.id);
  const page = pageNumberOf(route.params.page);
  if (!Number.isSafeInteger(tagId) || page === null) notFound();
  return { route, tagId, page };
}

/** The tag's name, 'missing' for an unknown tag; tag 0 is "all pictures". */
async function tagName(locale: Locale, tagId: number): Promise<Load<string>> {
  if (tagId !== ALL_PICTURES_TAG_ID) return dailypicTagById(tagId);
  const t = await getTranslations({ locale, namespace: 'dailypic' });
  return { state: 'found', value: t('allPictures') };
}

export async function generateMetadata(props: RouteProps): Promise<Metadata> {
  const { route, tagId, page } = await tagRoute(props);
  const name = await tagName(route.locale, tagId);
  if (name.state === 'missing') notFound();
  const t = await getTranslations({ locale: route.locale, namespace: 'dailypic' });
  const tag = name.state === 'found' ? name.value : t('tagFallback');
  return routeMetadata(route.locale, ROUTE, route.params, { tag, page: String(page) });
}

// Rendered on first request and then cached: no parameter is known at build time.
export function generateStaticParams(): Record<string, string>[] {
  return [];
}

export default async function DailypicTagPage(props: RouteProps) {
  const { route, tagId, page } = await tagRoute(props);
  const [name, load, tags] = await Promise.all([tagName(route.locale, tagId), tagPage(tagId, page), dailypicTags()]);
  if (name.state === 'missing' || load.state === 'missing') notFound();
  const t = await getTranslations({ locale: route.locale, namespace: 'dailypic' });
  const tag = name.state === 'found' ? name.value : t('tagFallback');
  return (
    <PageFrame locale={route.locale} name={ROUTE} params={route.params} values={{ tag, page: String(page) }}>
      <div data-testid="dailypic-tag-page">
        <DailypicTagBar locale={route.locale} tags={tags} current={tagId} />
        {load.state === 'found' && name.state === 'found' ? (
          <>
            <p className={styles.summary} data-testid="dailypic-summary">
              {t.rich('tagSummary', { total: load.value.total, strong: (chunks) => <strong>{chunks}</strong> })}
            </p>
            <DailypicGrid
              locale={route.locale}
              result={load.value}
              hrefOf={(target) => localizePath(dailypicTagPath(tagId, target), route.locale)}
            />
          </>
        ) : (
          <DailypicUnavailable locale={route.locale} />
        )}
      </div>
    </PageFrame>
  );
}
