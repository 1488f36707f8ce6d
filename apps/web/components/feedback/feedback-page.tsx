import type { Metadata } from 'next';
import Link from '@/components/ui/link';
import { NextIntlClientProvider } from 'next-intl';
import { getMessages, getTranslations } from 'next-intl/server';
import { PageFrame } from '@/components/page/page-frame';
import { ContactList } from '@/components/site/contact-list';
import { resolveRoute } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';
import type { FormVariant } from '@/lib/feedback/feedback-form';
import { localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import { routeMetadata } from '@/lib/metadata';
import type { RouteName } from '@/lib/routes';
import { FeedbackForm } from './feedback-form';
import formPage from '@/components/ui/form-page.module.css';
import styles from './feedback.module.css';

// /意见反馈.html, /jianyi.html and /complaint.html (decision 0013): the route's frame (breadcrumb, heading,
// intro from messages `pages`), the form, and beside it what helps a report or how complaints are
// handled, with the service contacts of the site configuration. The page is static; the form
// itself runs in the browser.

const ROUTE_OF: Readonly<Record<FormVariant, RouteName>> = { feedback: 'feedback', jianyi: 'jianyi', complaint: 'complaint' };

/** The messages the form needs in the browser: only its own part of the `feedback` namespace. */
const CLIENT_KEYS = ['required', 'optional', 'categories', 'products', 'complaintCategories', 'form', 'thanks'] as const;

async function FeedbackAside({ locale, variant }: { readonly locale: Locale; readonly variant: FormVariant }) {
  const t = await getTranslations({ locale, namespace: 'feedback.aside' });
  const isComplaint = variant === 'complaint';
  const tipsKey = variant === 'jianyi' ? 'jianyi' : 'feedback';
  return (
    <aside className={formPage.aside} data-testid="feedback-aside">
      {isComplaint ? (
        <section className={formPage.panel} aria-labelledby="complaint-steps">
          <h2 id="complaint-steps" className={formPage.panelTitle}>
            {t('complaintTitle')}
          </h2>
          <ol className={styles.steps}>
            {(t.raw('complaintSteps') as string[]).map((step, index) => (
              <li key={step} className={styles.step}>
                <span className={styles.stepNo} aria-hidden="true">
                  {index + 1}
                </span>
                <span>{step}</span>
              </li>
            ))}
          </ol>
          <p className={styles.note}>{t('refundNote')}</p>
        </section>
      ) : (
        <>
          <section className={formPage.panel} aria-labelledby="feedback-tips">
            <h2 id="feedback-tips" className={formPage.panelTitle}>
              {t(`${tipsKey}Title`)}
            </h2>
            <ul className={styles.tips}>
              {(t.raw(`${tipsKey}Tips`) as string[]).map((tip) => (
                <li key={tip}>{tip}</li>
              ))}
            </ul>
            {variant === 'jianyi' && <p className={styles.panelNote}>{t('jianyiNote')}</p>}
          </section>
          <section className={formPage.panel} aria-labelledby="feedback-self-help">
            <h2 id="feedback-self-help" className={formPage.panelTitle}>
              {t('selfHelpTitle')}
            </h2>
            <p className={formPage.panelText}>{t('selfHelp')}</p>
            <Link className={styles.panelLink} href={localizePath('/help.html', locale)}>
              {t('selfHelpLink')}
            </Link>
          </section>
        </>
      )}
      <section className={formPage.panel} aria-labelledby="feedback-contact">
        <h2 id="feedback-contact" className={formPage.panelTitle}>
          {t('contactTitle')}
        </h2>
        <ContactList labels={{ phone: t('phone'), email: t('email'), hours: t('hours') }} />
      </section>
    </aside>
  );
}

export function feedbackPage(variant: FormVariant) {
  const name = ROUTE_OF[variant];
  return {
    async generateMetadata(props: RouteProps): Promise<Metadata> {
      const route = await resolveRoute(name, props);
      return routeMetadata(route.locale, name, route.params);
    },
    async Page(props: RouteProps) {
      const route = await resolveRoute(name, props);
      const messages = await getMessages({ locale: route.locale });
      const own = (messages['feedback'] ?? {}) as Record<string, unknown>;
      const clientMessages = { feedback: Object.fromEntries(CLIENT_KEYS.map((key) => [key, own[key]])) };
      return (
        <PageFrame locale={route.locale} name={name} params={route.params}>
          <div className={formPage.layout}>
            <NextIntlClientProvider locale={route.locale} messages={clientMessages} timeZone="Asia/Shanghai">
              <FeedbackForm variant={variant} />
            </NextIntlClientProvider>
            <FeedbackAside locale={route.locale} variant={variant} />
          </div>
        </PageFrame>
      );
    },
  };
}
