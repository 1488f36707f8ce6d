import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { notFound } from 'next/navigation';
import { tagById, tagPostsPage } from '@/components/content/list/list-data';
import { TagPosts } from '@/components/content/list/paged-posts';
import { ContentUnavailable } from '@/components/content/list/post-list';
import { PageFrame } from '@/components/page/page-frame';
import { resolveRoute } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';
import { pageNumberOf } from '@/lib/content/lists';
import { localizePath } from '@/lib/i18n/locales';
import { routeMetadata } from '@/lib/metadata';

// spec §2 `/tag/{id}`: the tag's name and its posts, ten a page (`?page=N`); an unknown tag or a
// page past the end is a 404.

interface Props extends RouteProps {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

function tagIdOf(params: Record<string, string>): number {
  return Number(params.id);
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const [route, search] = await Promise.all([resolveRoute('tag-id', props), props.searchParams]);
  const base = await routeMetadata(route.locale, 'tag-id', route.params);
  const tag = await tagById(tagIdOf(route.params));
  if (tag.state === 'missing') notFound();
  if (tag.state !== 'found') return base;
  const t = await getTranslations({ locale: route.locale, namespace: 'contentList' });
  const page = pageNumberOf(search.page) ?? 1;
  const title = page > 1 ? t('tagTitlePaged', { name: tag.value.name, page }) : t('tagTitle', { name: tag.value.name });
  const description = t('tagDescription', { name: tag.value.name });
  return { ...base, title, description, openGraph: { ...base.openGraph, title, description } };
}

export default async function TagPage(props: Props) {
  const [route, search] = await Promise.all([resolveRoute('tag-id', props), props.searchParams]);
  const page = pageNumberOf(search.page);
  if (page === null) notFound();
  const id = tagIdOf(route.params);
  const tag = await tagById(id);
  if (tag.state === 'missing') notFound();
  const posts = tag.state === 'found' ? await tagPostsPage(id, page) : tag;
  if (posts.state === 'missing') notFound();
  const base = localizePath(`/tag/${id}`, route.locale);
  return (
    <PageFrame locale={route.locale} name="tag-id" params={route.params}>
      {tag.state === 'found' && posts.state === 'found' ? (
        <TagPosts
          locale={route.locale}
          tag={tag.value}
          result={posts.value}
          hrefOf={(target) => (target > 1 ? `${base}?page=${target}` : base)}
        />
      ) : (
        <ContentUnavailable locale={route.locale} />
      )}
    </PageFrame>
  );
}
