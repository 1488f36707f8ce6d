import type { MetadataRoute } from 'next';
import { LOCALES, localizePath } from '@/lib/i18n/locales';
import { ROUTES } from '@/lib/routes';
import { absoluteUrl } from '@/lib/site-url';

// Personal and sign-in pages are for signed-in visitors only; the APIs are not for crawlers.
export default function robots(): MetadataRoute.Robots {
  const privatePaths = ROUTES.filter((route) => route.layout !== 'default' || route.name === 'loginPhone').flatMap((route) =>
    LOCALES.map((locale) => localizePath(route.pattern.replace(/\{.*$/, ''), locale)),
  );
  return {
    rules: [{ userAgent: '*', allow: '/', disallow: ['/api/', '/wp-json/', ...new Set(privatePaths)] }],
    sitemap: absoluteUrl('/sitemap.xml'),
  };
}
