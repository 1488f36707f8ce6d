import { routePage } from '@/components/page/route-page';

const page = routePage('tools-index');

export const generateMetadata = page.generateMetadata;

export default page.Page;
