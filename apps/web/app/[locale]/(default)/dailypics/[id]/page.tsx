import { routePage } from '@/components/page/route-page';

const page = routePage('dailypics-id');

export const generateMetadata = page.generateMetadata;

// Rendered on first request and then cached: no parameter is known at build time.
export function generateStaticParams(): Record<string, string>[] {
  return [];
}

export default page.Page;
