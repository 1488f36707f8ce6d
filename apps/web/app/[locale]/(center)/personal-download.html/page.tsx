import { routePage } from '@/components/page/route-page';

const page = routePage('personal-download');

export const generateMetadata = page.generateMetadata;

export default page.Page;
