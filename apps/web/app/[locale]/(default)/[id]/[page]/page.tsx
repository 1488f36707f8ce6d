import { routePage } from '@/components/page/route-page';

const page = routePage('index-id-page');

export const generateMetadata = page.generateMetadata;

// Rendered on first request and then cached: no article id is known at build time.
export function generateStaticParams(): Record<string, string>[] {
  return [];
}

export default page.Page;
