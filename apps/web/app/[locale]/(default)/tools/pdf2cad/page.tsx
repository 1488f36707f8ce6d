import { routePage } from '@/components/page/route-page';

const page = routePage('tools-pdf2cad');

export const generateMetadata = page.generateMetadata;

export default page.Page;
