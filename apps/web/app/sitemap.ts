import type { MetadataRoute } from 'next';
import { alternateLinks } from '@/lib/alternates';
import { LOCALES } from '@/lib/i18n/locales';
import { ROUTES } from '@/lib/routes';

// Every indexable page of the route table, in every locale, with its alternates.
export default function sitemap(): MetadataRoute.Sitemap {
  return ROUTES.filter((route) => route.isIndexed).flatMap((route) =>
    LOCALES.map((locale) => {
      const links = alternateLinks(route.pattern, locale);
      return {
        url: links.canonical,
        changeFrequency: route.name === 'home' ? 'daily' : 'weekly',
        priority: route.name === 'home' ? 1 : 0.6,
        alternates: { languages: { ...links.languages } },
      };
    }),
  );
}
