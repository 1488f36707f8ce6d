import { getNow } from 'next-intl/server';
import { OpenVip } from '@/components/orders/open-vip';
import { personalPage } from '@/components/personal/personal-page';
import { productMembershipRows } from '@/lib/auth/account-view';
import { loadPayCatalogue } from '@/lib/pay/catalogue';

// The membership of each product is judged here from the profile the page was rendered with; the
// catalogue is the buy pages' (cached per render). Only the account id, the rows and the products
// cross to the browser: the session tokens stay on the server.
const page = personalPage('personal-openvip', async ({ locale, profile }) => {
  const [now, catalogue] = await Promise.all([getNow({ locale }), loadPayCatalogue()]);
  const rows = productMembershipRows(profile, Math.floor(now.getTime() / 1000));
  return <OpenVip uid={profile.uid} rows={rows} products={catalogue.state === 'found' ? catalogue.products : null} />;
});

// Per user: rendered for each request from the session cookie, never cached (decision 0008).
export const dynamic = 'force-dynamic';

export const generateMetadata = page.generateMetadata;

export default page.Page;
