import { toolRoutePage } from '@/components/tools/tool-page';

// spec §2 /tools/cad2pdf: static; the conversion itself runs in the browser (decision 0019).
const page = toolRoutePage('cad2pdf');

export const generateMetadata = page.generateMetadata;

export default page.Page;
