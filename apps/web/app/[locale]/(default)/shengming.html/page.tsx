import { contentPage } from '@/components/content/article/static-page';

// The statement (声明) is page 9002 of the content API (content/pages/9002-shengming.md).
const page = contentPage('shengming', 9002);

export const generateMetadata = page.generateMetadata;

export default page.Page;
