import { routePage } from '@/components/page/route-page';

// spec §2: `/{id}` and `/{id}.html` are one article page (route name index-id); the footer links
// the `.html` form, so that is the canonical one.
const page = routePage('index-id', {
  canonical: ({ id = '' }) => ({ id: `${id.replace(/\.html$/, '')}.html` }),
  values: ({ id = '' }) => ({ id: id.replace(/\.html$/, '') }),
});

export const generateMetadata = page.generateMetadata;

// Rendered on first request and then cached: no article id is known at build time.
export function generateStaticParams(): Record<string, string>[] {
  return [];
}

export default page.Page;
