import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { PageFrame } from '@/components/page/page-frame';
import { resolveRoute } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';
import { readServerSession } from '@/lib/api/server-client';
import type { ServerProfile } from '@/lib/api/server-client';
import type { Locale } from '@/lib/i18n/locales';
import { routeMetadata } from '@/lib/metadata';
import type { RouteName } from '@/lib/routes';
import { SigninGate } from './signin-gate';

export interface PersonalContentProps {
  readonly locale: Locale;
  readonly profile: ServerProfile;
}

/**
 * A page of the personal centre (spec §2 personal*.html): rendered per request from the session
 * cookie. A signed-in visitor sees `Content` (the page's pending note until it has one); anyone
 * else the sign-in gate, which opens the login and re-renders the page after it.
 */
export function personalPage(name: RouteName, Content?: (props: PersonalContentProps) => ReactNode | Promise<ReactNode>) {
  return {
    async generateMetadata(props: RouteProps): Promise<Metadata> {
      const route = await resolveRoute(name, props);
      return routeMetadata(route.locale, name);
    },
    async Page(props: RouteProps) {
      const route = await resolveRoute(name, props);
      const session = await readServerSession();
      let body: ReactNode;
      if (session.kind !== 'signedIn') body = <SigninGate isUnavailable={session.kind === 'unavailable'} />;
      else if (Content) body = <Content locale={route.locale} profile={session.profile} />;
      return (
        <PageFrame locale={route.locale} name={name}>
          {body}
        </PageFrame>
      );
    },
  };
}
