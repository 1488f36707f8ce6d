import { notFound } from 'next/navigation';
import { PageFrame } from '@/components/page/page-frame';
import { resolveRoute } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';
import { pageNumberOf } from '@/lib/content/lists';
import type { ListTerm } from '@/lib/content/lists';
import { localizePath } from '@/lib/i18n/locales';
import { articleTopics, topicPostsPage, type Load } from './list-data';
import { ContentUnavailable } from './post-list';
import { TopicPosts } from './topic-posts';

// The pages of `/lingwai.html` and `/lingwai/{slug?}` share everything but their route name.

export interface TopicProps extends RouteProps {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

type TopicRouteName = 'lingwai' | 'lingwai-slug';

/** The route, the page number (null when malformed) and the topic (null for every article). */
export async function topicRoute(name: TopicRouteName, props: TopicProps) {
  const [route, search] = await Promise.all([resolveRoute(name, props), props.searchParams]);
  const page = pageNumberOf(search.page);
  const slug = route.params.slug ?? '';
  let topic: Load<ListTerm | null> = { state: 'found', value: null };
  if (slug !== '') {
    const topics = await articleTopics();
    if (topics.state !== 'found') topic = topics;
    else {
      const found = topics.value.find((term) => term.slug === slug);
      topic = found === undefined ? { state: 'missing' } : { state: 'found', value: found };
    }
  }
  return { route, page, slug, topic };
}

export async function TopicPage({ name, props }: { name: TopicRouteName; props: TopicProps }) {
  const { route, page, slug, topic } = await topicRoute(name, props);
  if (page === null || topic.state === 'missing') notFound();
  const [topics, posts] = await Promise.all([
    articleTopics(),
    topic.state === 'found' ? topicPostsPage(topic.value, page) : Promise.resolve(topic),
  ]);
  if (posts.state === 'missing') notFound();
  const base = localizePath(slug === '' ? '/lingwai.html' : `/lingwai/${slug}`, route.locale);
  return (
    <PageFrame locale={route.locale} name={name} params={route.params}>
      {topics.state === 'found' && topic.state === 'found' && posts.state === 'found' ? (
        <TopicPosts
          locale={route.locale}
          topics={topics.value}
          current={topic.value}
          result={posts.value}
          hrefOf={(target) => (target > 1 ? `${base}?page=${target}` : base)}
        />
      ) : (
        <ContentUnavailable locale={route.locale} />
      )}
    </PageFrame>
  );
}
