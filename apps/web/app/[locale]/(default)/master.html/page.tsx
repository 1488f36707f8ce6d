import { routePage } from '@/components/page/route-page';

const page = routePage('master');

export const generateMetadata = page.generateMetadata;

export default page.Page;
