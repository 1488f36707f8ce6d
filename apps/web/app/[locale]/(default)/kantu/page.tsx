import { routePage } from '@/components/page/route-page';

const page = routePage('kantu');

export const generateMetadata = page.generateMetadata;

export default page.Page;
