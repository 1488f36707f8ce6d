import 'server-only';
import type { Metadata } from 'next';
import { alternateLinks } from '@/lib/alternates';
import type { Locale } from '@/lib/i18n/locales';
import type { Article } from '@/lib/content/posts';

/** An article's head from its SEO data (yoast_head_json, else title and excerpt) on the site's canonical path. */
export function articleMetadata(locale: Locale, article: Article, path: string): Metadata {
  const links = alternateLinks(path, locale);
  const { title, description, keywords } = article.seo;
  return {
    title,
    description,
    ...(keywords === '' ? {} : { keywords }),
    alternates: { canonical: links.canonical, languages: { ...links.languages } },
    openGraph: { type: 'article', title, description, url: links.canonical, publishedTime: article.date || undefined, modifiedTime: article.modified || undefined },
  };
}
