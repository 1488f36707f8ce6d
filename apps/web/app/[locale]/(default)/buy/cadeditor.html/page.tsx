import { routePage } from '@/components/page/route-page';

const page = routePage('buy-cadeditor');

export const generateMetadata = page.generateMetadata;

export default page.Page;
