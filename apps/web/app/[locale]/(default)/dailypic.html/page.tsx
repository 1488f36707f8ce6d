import { routePage } from '@/components/page/route-page';

const page = routePage('dailypic');

export const generateMetadata = page.generateMetadata;

export default page.Page;
