import { toolRoutePage } from '@/components/tools/tool-page';

// spec §2 /tools/cad2ver: static; the conversion itself runs in the browser (decision 0019).
const page = toolRoutePage('cad2ver');

export const generateMetadata = page.generateMetadata;

export default page.Page;
