import type { MetadataRoute } from 'next';
import { alternateLinks } from '@/lib/alternates';
import { wpGet } from '@/lib/content/wp-fetch';
import { loadDrawingList } from '@/lib/drawings/drawings-api';
import { LOCALES } from '@/lib/i18n/locales';
import { ROUTES } from '@/lib/routes';

// Every indexable page of the route table, and every article, daily picture and library drawing,
// in every locale with its alternates. Regenerated hourly; when the content API cannot be reached
// the route pages are still listed.
export const revalidate = 3600;

type Entry = MetadataRoute.Sitemap[number];
type Frequency = Entry['changeFrequency'];

function entries(path: string, changeFrequency: Frequency, priority: number, lastModified?: string): Entry[] {
  return LOCALES.map((locale) => {
    const links = alternateLinks(path, locale);
    return {
      url: links.canonical,
      ...(lastModified ? { lastModified } : {}),
      changeFrequency,
      priority,
      alternates: { languages: { ...links.languages } },
    };
  });
}

async function articlePaths(): Promise<Array<{ path: string; modified?: string }>> {
  const found: Array<{ path: string; modified?: string }> = [];
  for (let page = 1; page <= 20; page++) {
    const answer = await wpGet('posts', { page, per_page: 100, _fields: 'id,modified' });
    if (answer === false || !Array.isArray(answer.body)) break;
    for (const post of answer.body as Array<{ id?: unknown; modified?: unknown }>) {
      if (typeof post.id === 'number')
        found.push({ path: `/${post.id}.html`, ...(typeof post.modified === 'string' ? { modified: post.modified } : {}) });
    }
    if (page >= (answer.totalPages ?? 1)) break;
  }
  return found;
}

async function dailypicPaths(): Promise<string[]> {
  const answer = await wpGet('get_dailypics', { paged: 1, per_page: 100 });
  const data = answer === false ? null : (answer.body as { data?: Array<{ ID?: unknown }> }).data;
  return Array.isArray(data) ? data.flatMap((item) => (typeof item.ID === 'number' ? [`/dailypics/${item.ID}`] : [])) : [];
}

async function drawingPaths(): Promise<string[]> {
  const paths: string[] = [];
  for (let page = 1; page <= 50; page++) {
    const list = await loadDrawingList({ q: '', page });
    if (list.state !== 'found') break;
    paths.push(...list.value.items.map((item) => `/dwgItem/${item.id}`));
    if (page >= list.value.totalPages) break;
  }
  return paths;
}

export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const routes = ROUTES.filter((route) => route.isIndexed).flatMap((route) =>
    entries(route.pattern, route.name === 'home' ? 'daily' : 'weekly', route.name === 'home' ? 1 : 0.6),
  );
  const [articles, pictures, drawings] = await Promise.all([articlePaths(), dailypicPaths(), drawingPaths()]);
  return [
    ...routes,
    ...articles.flatMap((article) => entries(article.path, 'monthly', 0.5, article.modified)),
    ...pictures.flatMap((path) => entries(path, 'monthly', 0.4)),
    ...drawings.flatMap((path) => entries(path, 'monthly', 0.4)),
  ];
}
