import { toolsHubPage } from '@/components/tools/tools-hub';

// spec §2 /tools.html: the online conversion tools (decision 0019).
const page = toolsHubPage('tools');

export const generateMetadata = page.generateMetadata;

export default page.Page;
