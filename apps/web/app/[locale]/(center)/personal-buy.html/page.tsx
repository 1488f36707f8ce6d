import { OrderRecords } from '@/components/orders/order-records';
import { personalPage } from '@/components/personal/personal-page';
import { loadFirstOrderPage } from '@/lib/orders/orders-server';

// The first page of orders is rendered with the page (no flash of a spinner); the pager then asks
// from the browser.
const page = personalPage('personal-buy', async ({ profile }) => <OrderRecords initial={await loadFirstOrderPage(profile.username)} />);

// Per user: rendered for each request from the session cookie, never cached (decision 0008).
export const dynamic = 'force-dynamic';

export const generateMetadata = page.generateMetadata;

export default page.Page;
