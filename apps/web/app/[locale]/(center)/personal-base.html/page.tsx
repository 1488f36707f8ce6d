import { routePage } from '@/components/page/route-page';

const page = routePage('personal-base');

export const generateMetadata = page.generateMetadata;

export default page.Page;
