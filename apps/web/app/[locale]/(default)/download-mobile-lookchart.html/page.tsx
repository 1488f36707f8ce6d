import { downloadRoutePage } from '@/components/download/download-route';

// spec §2 /download-mobile-lookchart.html: the download page of its product (decision 0012).
const page = downloadRoutePage('download-mobile-lookchart');

export const generateMetadata = page.generateMetadata;

export default page.Page;
