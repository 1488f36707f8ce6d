import { ScanLogin } from '@/components/auth/scan-login/scan-login';
import { resolveRoute } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';
import { routeMetadata } from '@/lib/metadata';

// One page per login attempt: rendered on request and never kept (each logintag is seen once).
export const dynamic = 'force-dynamic';

export async function generateMetadata(props: RouteProps) {
  const route = await resolveRoute('scanlogin-logintag', props);
  return routeMetadata(route.locale, 'scanlogin-logintag', route.params);
}

export default async function ScanLoginPage(props: RouteProps) {
  const route = await resolveRoute('scanlogin-logintag', props);
  return <ScanLogin logintag={route.params.logintag ?? ''} />;
}
