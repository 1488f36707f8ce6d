import { toolsHubPage } from '@/components/tools/tools-hub';

// spec §2 /tools.html: the online conversion tools (issue 7).
const page = toolsHubPage('tools');

export const generateMetadata = page.generateMetadata;

export default page.Page;
