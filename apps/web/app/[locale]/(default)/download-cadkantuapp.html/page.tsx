import { downloadRoutePage } from '@/components/download/download-route';

// spec §2 /download-cadkantuapp.html: the download page of its product (decision 0012).
const page = downloadRoutePage('download-cadkantuapp');

export const generateMetadata = page.generateMetadata;

export default page.Page;
