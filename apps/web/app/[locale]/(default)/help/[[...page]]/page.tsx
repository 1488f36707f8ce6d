import { routePage } from '@/components/page/route-page';

// spec §2: `/help/{page?}`; without a page number it is the first page.
const page = routePage('help-page', { values: ({ page: number = '1' }) => ({ page: number }) });

export const generateMetadata = page.generateMetadata;

export function generateStaticParams(): { page: string[] }[] {
  return [{ page: [] }];
}

export default page.Page;
