import { routePage } from '@/components/page/route-page';

const page = routePage('buy-cadresources');

export const generateMetadata = page.generateMetadata;

export default page.Page;
