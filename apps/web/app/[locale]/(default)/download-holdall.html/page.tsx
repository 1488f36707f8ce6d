import { routePage } from '@/components/page/route-page';

const page = routePage('download-holdall');

export const generateMetadata = page.generateMetadata;

export default page.Page;
