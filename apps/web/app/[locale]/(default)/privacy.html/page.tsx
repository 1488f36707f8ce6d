import { contentPage } from '@/components/content/article/static-page';

// The privacy policy is page 9001 of the content API (content/pages/9001-privacy.md).
const page = contentPage('privacy', 9001);

export const generateMetadata = page.generateMetadata;

export default page.Page;
