import { downloadRoutePage } from '@/components/download/download-route';

// spec §2 /download-holdall.html: the download page of its product (decision 0012).
const page = downloadRoutePage('download-holdall');

export const generateMetadata = page.generateMetadata;

export default page.Page;
