import { routePage } from '@/components/page/route-page';

const page = routePage('buy-cadholdall');

export const generateMetadata = page.generateMetadata;

export default page.Page;
