import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { notFound } from 'next/navigation';
import { TopicPage, topicRoute } from '@/components/content/list/topic-page';
import type { TopicProps } from '@/components/content/list/topic-page';
import { routeMetadata } from '@/lib/metadata';

// spec §2 `/lingwai.html` (更多CAD文章): every help and tutorial article, newest first, ten a page
// (`?page=N`), with the topics (categories) as tabs leading to `/lingwai/{slug}`.

export async function generateMetadata(props: TopicProps): Promise<Metadata> {
  const { route, page } = await topicRoute('lingwai', props);
  const base = await routeMetadata(route.locale, 'lingwai', route.params);
  if (page === null) notFound();
  if (page === 1) return base;
  const t = await getTranslations({ locale: route.locale, namespace: 'contentList' });
  const title = t('allTitlePaged', { page });
  return { ...base, title, openGraph: { ...base.openGraph, title } };
}

export default async function LingwaiPage(props: TopicProps) {
  return <TopicPage name="lingwai" props={props} />;
}
