import type { Metadata } from 'next';
import { Suspense } from 'react';
import { getTranslations } from 'next-intl/server';
import { PageFrame } from '@/components/page/page-frame';
import { ContactList } from '@/components/site/contact-list';
import { resolveRoute } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';
import type { Locale } from '@/lib/i18n/locales';
import { routeMetadata } from '@/lib/metadata';
import { InvoiceCenter } from './invoice-center';
import formPage from '@/components/ui/form-page.module.css';
import styles from './invoice.module.css';

// /invoice.html (decision 0018): the route's frame, the application (in the browser: it needs the
// account) and beside it how invoicing works and whom to ask. The page itself stays static.

async function InvoiceAside({ locale }: { readonly locale: Locale }) {
  const t = await getTranslations({ locale, namespace: 'orders.invoice.aside' });
  return (
    <aside className={formPage.aside} data-testid="invoice-aside">
      <section className={formPage.panel} aria-labelledby="invoice-rules">
        <h2 id="invoice-rules" className={formPage.panelTitle}>
          {t('rulesTitle')}
        </h2>
        <ul className={styles.rules}>
          {(t.raw('rules') as string[]).map((rule) => (
            <li key={rule}>{rule}</li>
          ))}
        </ul>
      </section>
      <section className={formPage.panel} aria-labelledby="invoice-contact">
        <h2 id="invoice-contact" className={formPage.panelTitle}>
          {t('contactTitle')}
        </h2>
        <p className={`${formPage.panelText} ${styles.contactText}`}>{t('contactText')}</p>
        <ContactList labels={{ phone: t('phone'), email: t('email'), hours: t('hours') }} />
      </section>
    </aside>
  );
}

export function invoicePage() {
  const name = 'invoice';
  return {
    async generateMetadata(props: RouteProps): Promise<Metadata> {
      const route = await resolveRoute(name, props);
      return routeMetadata(route.locale, name, route.params);
    },
    async Page(props: RouteProps) {
      const route = await resolveRoute(name, props);
      return (
        <PageFrame locale={route.locale} name={name} params={route.params}>
          <div className={formPage.layout}>
            {/* `?orderno=` is read in the browser: the static page renders the loading state. */}
            <Suspense fallback={<div className={styles.placeholder} aria-busy="true" />}>
              <InvoiceCenter />
            </Suspense>
            <InvoiceAside locale={route.locale} />
          </div>
        </PageFrame>
      );
    },
  };
}
