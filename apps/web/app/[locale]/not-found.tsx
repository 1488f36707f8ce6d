import { MobileHeader } from '@/components/site/mobile-header';
import { SiteHeader } from '@/components/site/site-header';
import { NotFoundPage } from '@/components/page/not-found-page';
import { notFoundLinks } from '@/lib/not-found-links';

// When a page calls notFound() (e.g. content that no longer exists). Not-found files get no route
// parameters, so this one renders only what works from the layout's client providers: the
// headers and the 404 page. Unknown URLs never get here: the proxy serves them the full 404 page.
export default function LocaleNotFound() {
  return (
    <>
      <SiteHeader />
      <MobileHeader />
      <main id="main">
        <NotFoundPage links={notFoundLinks()} />
      </main>
    </>
  );
}
