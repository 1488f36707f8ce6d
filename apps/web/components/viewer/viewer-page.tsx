import type { Metadata } from 'next';
import { NextIntlClientProvider } from 'next-intl';
import { getMessages } from 'next-intl/server';
import { PageFrame } from '@/components/page/page-frame';
import { resolveRoute, type RouteProps } from '@/components/page/route-page';
import { routeMetadata } from '@/lib/metadata';
import { ViewerApp } from './viewer-app';
import styles from './viewer.module.css';

// spec §1 online drawing viewer, §2 /kantu (decision 0021): the page is static; the drawing is opened,
// parsed and drawn in the visitor's browser. The client part gets the `viewer` messages only.

const NAME = 'kantu';

export function viewerRoutePage() {
  return {
    async generateMetadata(props: RouteProps): Promise<Metadata> {
      const route = await resolveRoute(NAME, props);
      return routeMetadata(route.locale, NAME);
    },
    async Page(props: RouteProps) {
      const { locale } = await resolveRoute(NAME, props);
      const messages = await getMessages({ locale });
      return (
        <PageFrame locale={locale} name={NAME} showRelated={false}>
          <div className={styles.page} data-testid="viewer-page">
            <NextIntlClientProvider locale={locale} messages={{ viewer: messages['viewer'] ?? {} }} timeZone="Asia/Shanghai">
              <ViewerApp />
            </NextIntlClientProvider>
          </div>
        </PageFrame>
      );
    },
  };
}
