import { routePage } from '@/components/page/route-page';

const page = routePage('loginPhone');

export const generateMetadata = page.generateMetadata;

export default page.Page;
