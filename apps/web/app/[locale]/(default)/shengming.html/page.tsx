import { routePage } from '@/components/page/route-page';

const page = routePage('shengming');

export const generateMetadata = page.generateMetadata;

export default page.Page;
