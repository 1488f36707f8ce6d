import { routePage } from '@/components/page/route-page';

const page = routePage('download-converter');

export const generateMetadata = page.generateMetadata;

export default page.Page;
