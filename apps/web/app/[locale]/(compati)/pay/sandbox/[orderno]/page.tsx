import type { Metadata } from 'next';
import { resolveRoute } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';
import { SandboxCashier } from '@/components/pay/sandbox-cashier';
import { routeMetadata } from '@/lib/metadata';

// Decision 0018: the cashier a phone reaches by scanning a sandbox order's QR code. One page per order,
// rendered on request and never indexed.
export const dynamic = 'force-dynamic';

export async function generateMetadata(props: RouteProps): Promise<Metadata> {
  const route = await resolveRoute('pay-sandbox-orderno', props);
  const metadata = await routeMetadata(route.locale, 'pay-sandbox-orderno', route.params);
  return { ...metadata, robots: { index: false, follow: false } };
}

export default async function SandboxCashierPage(props: RouteProps) {
  const route = await resolveRoute('pay-sandbox-orderno', props);
  return <SandboxCashier orderno={route.params.orderno ?? ''} />;
}
