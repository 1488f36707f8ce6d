import { toolRoutePage } from '@/components/tools/tool-page';

// spec §2 /tools/pdf2cad: static; the conversion itself runs in the browser (issue 7).
const page = toolRoutePage('pdf2cad');

export const generateMetadata = page.generateMetadata;

export default page.Page;
