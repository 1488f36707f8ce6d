import { personalPage } from '@/components/personal/personal-page';
import { ConversionHistory } from '@/components/tools/conversion-history';
import { ToolsMessages } from '@/components/tools/tools-messages';

// The signed-in user's online conversions (decision 0019), read from the browser with the session.
const page = personalPage('personal-download', ({ locale }) => (
  <ToolsMessages locale={locale} parts={['history', 'recent']}>
    <ConversionHistory />
  </ToolsMessages>
));

// Per user: rendered for each request from the session cookie, never cached (decision 0008).
export const dynamic = 'force-dynamic';

export const generateMetadata = page.generateMetadata;

export default page.Page;
