import type { Metadata } from 'next';
import { resolveRoute } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';
import { PayResult } from '@/components/pay/pay-result';
import { routeMetadata } from '@/lib/metadata';

// Decision 0043: where a phone comes back from WeChat Pay (H5 redirect_url, or after the JSAPI sheet)
// and from Alipay (return_url). One page per order, rendered on request and never indexed.
export const dynamic = 'force-dynamic';

export async function generateMetadata(props: RouteProps): Promise<Metadata> {
  const route = await resolveRoute('pay-result-orderno', props);
  const metadata = await routeMetadata(route.locale, 'pay-result-orderno', route.params);
  return { ...metadata, robots: { index: false, follow: false } };
}

export default async function PayResultPage(props: RouteProps) {
  const route = await resolveRoute('pay-result-orderno', props);
  return <PayResult orderno={route.params.orderno ?? ''} />;
}
