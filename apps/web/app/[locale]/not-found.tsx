import type { Metadata } from 'next';
import { MobileHeader } from '@/components/site/mobile-header';
import { SiteHeader } from '@/components/site/site-header';
import { NotFoundPage } from '@/components/page/not-found-page';
import { NOT_FOUND_TITLE, notFoundLinks } from '@/lib/not-found-links';

// When a page calls notFound() (an article, a daily picture or a drawing that does not exist, e.g.
// /99999). Not-found files get no route parameters, and reading the locale from the request here
// would make the static pages above it dynamic: so this renders only what works from the layout's
// client providers (the headers, with no menu entry marked, and the 404 page), and its title is
// '404' in the locale's title template ('404 - 迅捷CAD', not the home page's title), as on every
// not-found page. Unknown URLs never get here: the proxy serves them the full 404 page.
export const metadata: Metadata = { title: NOT_FOUND_TITLE, robots: { index: false } };

export default function LocaleNotFound() {
  return (
    <>
      <SiteHeader hasActiveEntry={false} />
      <MobileHeader hasActiveEntry={false} />
      <main id="main">
        <NotFoundPage links={notFoundLinks()} />
      </main>
    </>
  );
}
