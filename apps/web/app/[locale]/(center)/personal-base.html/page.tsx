import { PersonalBaseForms } from '@/components/personal/personal-base-forms';
import { personalPage } from '@/components/personal/personal-page';

// Only what the forms need crosses to the browser: the session tokens stay on the server.
const page = personalPage('personal-base', ({ profile }) => (
  <PersonalBaseForms
    profile={{
      uid: profile.uid,
      nickname: profile.nickname,
      ispwd: profile.ispwd,
      logintype: profile.logintype,
      bindmobile: profile.bindmobile,
    }}
  />
));

// Per user: rendered for each request from the session cookie, never cached (decision 0008).
export const dynamic = 'force-dynamic';

export const generateMetadata = page.generateMetadata;

export default page.Page;
