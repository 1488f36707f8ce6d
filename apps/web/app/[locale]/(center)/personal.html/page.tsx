import { PersonalOverview } from '@/components/personal/personal-overview';
import { personalPage } from '@/components/personal/personal-page';

const page = personalPage('personal', PersonalOverview);

// Per user: rendered for each request from the session cookie, never cached (decision 0008).
export const dynamic = 'force-dynamic';

export const generateMetadata = page.generateMetadata;

export default page.Page;
