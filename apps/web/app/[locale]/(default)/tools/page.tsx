import { toolsHubPage } from '@/components/tools/tools-hub';

// spec §2 /tools: the same hub as /tools.html (its canonical).
const page = toolsHubPage('tools-index');

export const generateMetadata = page.generateMetadata;

export default page.Page;
