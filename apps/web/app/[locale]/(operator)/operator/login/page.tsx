import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { ZOperatorMe } from '@xcad/protocol';
import { LoginForm } from '@/components/operator/console/login-form';
import styles from '@/components/operator/console/console.module.css';
import { resolveRoute, type SearchRouteProps } from '@/components/page/route-page';
import { routeMetadata } from '@/lib/metadata';
import { operatorRead } from '@/lib/operator/server';

// Decision 0042: the back office's sign-in. An operator already signed in goes on to the console.

const NAME = 'operator-login';

export const dynamic = 'force-dynamic';

export async function generateMetadata(props: SearchRouteProps): Promise<Metadata> {
  const route = await resolveRoute(NAME, props);
  return { ...(await routeMetadata(route.locale, NAME)), robots: { index: false, follow: false } };
}

/** Where to go after signing in: a console path only (never another site). */
function nextOf(value: string | string[] | undefined): string {
  const text = typeof value === 'string' ? value : '';
  return /^\/operator(?:\/[\w\-/?=&%.]*)?$/.test(text) && !text.startsWith('/operator/login') ? text : '/operator';
}

export default async function OperatorLoginPage(props: SearchRouteProps) {
  await resolveRoute(NAME, props);
  const query = await props.searchParams;
  const next = nextOf(query['next']);
  const me = await operatorRead('/api/operator/me', ZOperatorMe);
  if (me.kind === 'ok') redirect(next);
  return (
    <main className={styles.login}>
      <LoginForm next={next} expired={query['expired'] === '1'} />
    </main>
  );
}
