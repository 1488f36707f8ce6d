import { routePage } from '@/components/page/route-page';

const page = routePage('personal');

export const generateMetadata = page.generateMetadata;

export default page.Page;
