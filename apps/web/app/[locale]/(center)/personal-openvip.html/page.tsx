import { personalPage } from '@/components/personal/personal-page';

// Signed-in visitors see the page frame; its content arrives with a later issue.
const page = personalPage('personal-openvip');

// Per user: rendered for each request from the session cookie, never cached (decision 0008).
export const dynamic = 'force-dynamic';

export const generateMetadata = page.generateMetadata;

export default page.Page;
