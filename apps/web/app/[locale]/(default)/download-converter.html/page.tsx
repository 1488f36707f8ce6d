import { downloadRoutePage } from '@/components/download/download-route';

// spec §2 /download-converter.html: the download page of its product (decision 0012).
const page = downloadRoutePage('download-converter');

export const generateMetadata = page.generateMetadata;

export default page.Page;
