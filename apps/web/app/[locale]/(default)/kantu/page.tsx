import { viewerRoutePage } from '@/components/viewer/viewer-page';

// spec §2 /kantu: the online drawing viewer (decision 0021); static, the drawing opens in the browser.
const page = viewerRoutePage();

export const generateMetadata = page.generateMetadata;

export default page.Page;
