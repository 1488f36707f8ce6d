import { routePage } from '@/components/page/route-page';

const page = routePage('tools-cad2ver');

export const generateMetadata = page.generateMetadata;

export default page.Page;
