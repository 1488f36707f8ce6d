import { toolRoutePage } from '@/components/tools/tool-page';

// spec §2 /tools/pdf2cad: static; the conversion itself runs in the browser (decision 0019).
const page = toolRoutePage('pdf2cad');

export const generateMetadata = page.generateMetadata;

export default page.Page;
