import { WeixinLoginCallback } from '@/components/page/weixin-login-callback';
import { resolveRoute } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';
import { routeMetadata } from '@/lib/metadata';

export async function generateMetadata(props: RouteProps) {
  const { locale } = await resolveRoute('weixin-login-callback', props);
  return routeMetadata(locale, 'weixin-login-callback');
}

export default async function WeixinLoginCallbackPage(props: RouteProps) {
  await resolveRoute('weixin-login-callback', props);
  return <WeixinLoginCallback />;
}
