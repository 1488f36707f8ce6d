import { routePage } from '@/components/page/route-page';

const page = routePage('buy-cadconverter');

export const generateMetadata = page.generateMetadata;

export default page.Page;
