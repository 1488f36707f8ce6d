import { sharePage } from '@/components/tools/share-page';

// spec §2 /share.html: the phone page of a task's QR; the task is read in the browser (decision 0019).
export const generateMetadata = sharePage.generateMetadata;

export default sharePage.Page;
