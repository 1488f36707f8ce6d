import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { notFound } from 'next/navigation';
import { TopicPage, topicRoute } from '@/components/content/list/topic-page';
import type { TopicProps } from '@/components/content/list/topic-page';
import { routeMetadata } from '@/lib/metadata';

// spec §2 `/lingwai/{slug?}`: the articles of one topic (category slug), ten a page (`?page=N`);
// without a slug, every article as on /lingwai.html (which is then the canonical address). An
// unknown topic or a page past the end is a 404.

export async function generateMetadata(props: TopicProps): Promise<Metadata> {
  const { route, page, topic } = await topicRoute('lingwai-slug', props);
  if (page === null || topic.state === 'missing') notFound();
  if (topic.state !== 'found' || topic.value === null) return routeMetadata(route.locale, 'lingwai', {});
  const base = await routeMetadata(route.locale, 'lingwai-slug', route.params);
  const t = await getTranslations({ locale: route.locale, namespace: 'contentList' });
  const name = topic.value.name;
  const title = page > 1 ? t('topicTitlePaged', { name, page }) : t('topicTitle', { name });
  const description = t('topicDescription', { name });
  return { ...base, title, description, openGraph: { ...base.openGraph, title, description } };
}

export default async function LingwaiTopicPage(props: TopicProps) {
  return <TopicPage name="lingwai-slug" props={props} />;
}
