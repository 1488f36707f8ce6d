import Link from '@/components/ui/link';
import { getTranslations } from 'next-intl/server';
import { PageFrame } from '@/components/page/page-frame';
import { MenuGlyph } from '@/components/site/menu-glyph';
import { ArrowRightIcon, BoltIcon, CheckIcon, ReceiptIcon, ShieldIcon } from '@/components/ui/icons';
import { siteConfig } from '@/config/site';
import { localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import { BUY_PAGES, benefitCellOf, buyPathOf, benefitRowsOf, featuresOf, type BuyRoute } from '@/lib/pay/buy-pages';
import { loadPayCatalogue } from '@/lib/pay/catalogue';
import { productsById } from '@/lib/pay/plans';
import { EditionTabs } from './edition-tabs';
import { ProductPlans } from './product-plans';
import styles from './buy.module.css';

// The six /buy/*.html pages (spec §2, decision 0018): what the product does, its packages from the
// catalogue with the cashier, the member benefits, and the questions buyers ask. The copy is
// static; only the packages come from the API, and without them the rest of the page still shows.

/** The catalogue could not be read: say so where the packages would be, with the hotline. */
export async function CatalogueUnavailable({ locale, path }: { locale: Locale; path: string }) {
  const t = await getTranslations({ locale, namespace: 'buy.page.unavailable' });
  return (
    <div className={styles.unavailable} role="status" data-testid="buy-unavailable">
      <h3 className={styles.unavailableTitle}>{t('title')}</h3>
      <p>
        {t.rich('text', {
          phone: siteConfig().phones[0] ?? '',
          // A hotline is read as one piece, never broken at its hyphens.
          nowrap: (chunks) => <span className={styles.nowrap}>{chunks}</span>,
        })}
      </p>
      <p>
        <a className={styles.retry} href={localizePath(path, locale)}>
          {t('retry')}
        </a>
      </p>
    </div>
  );
}

async function Plans({ locale, route }: { locale: Locale; route: BuyRoute }) {
  const def = BUY_PAGES[route];
  const [t, catalogue] = await Promise.all([getTranslations({ locale, namespace: 'buy' }), loadPayCatalogue()]);
  const unavailable = <CatalogueUnavailable locale={locale} path={buyPathOf(route)} />;
  if (catalogue.state !== 'found') return unavailable;
  const products = productsById(catalogue.products, def.productIds);
  const [first] = products;
  if (first === undefined) return unavailable;
  if (products.length === 1) return <ProductPlans product={first} channel={def.channel} />;
  const editions = products.map((product) => ({
    product,
    label: t(`products.${def.key}.editions.${product.productid}.label`),
    text: t(`products.${def.key}.editions.${product.productid}.text`),
  }));
  const pay = await getTranslations({ locale, namespace: 'pay' });
  return <EditionTabs editions={editions} label={pay('plans.editions')} />;
}

/** What buying here guarantees; `isStacked`: one item a line (the buy pages' left column). */
export async function ServiceStrip({ locale, isStacked = false }: { locale: Locale; isStacked?: boolean }) {
  const t = await getTranslations({ locale, namespace: 'buy.service' });
  const items = [
    { key: 'safe', icon: <ShieldIcon size={22} /> },
    { key: 'instant', icon: <BoltIcon size={22} /> },
    { key: 'invoice', icon: <ReceiptIcon size={22} /> },
  ] as const;
  return (
    <ul className={isStacked ? `${styles.service} ${styles.serviceStacked}` : styles.service} aria-label={t('label')}>
      {items.map((item) => (
        <li key={item.key} className={styles.serviceItem}>
          <span className={styles.serviceIcon} aria-hidden="true">
            {item.icon}
          </span>
          <span>
            <strong className={styles.serviceTitle}>{t(`${item.key}.title`)}</strong>
            <span className={styles.serviceText}>{t(`${item.key}.text`)}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

const FAQ_KEYS = ['payment', 'invoice', 'renew', 'lifetime', 'devices'] as const;

async function Faq({ locale }: { locale: Locale }) {
  const t = await getTranslations({ locale, namespace: 'buy' });
  return (
    <section className={styles.section} aria-labelledby="buy-faq" data-testid="buy-faq">
      <h2 id="buy-faq" className={styles.sectionTitle}>
        {t('page.faqTitle')}
      </h2>
      <div className={styles.faq}>
        {FAQ_KEYS.map((key, index) => (
          <details key={key} className={styles.faqItem} open={index === 0}>
            <summary className={styles.faqQuestion}>{t(`faq.${key}.q`)}</summary>
            <p className={styles.faqAnswer}>
              {t.rich(`faq.${key}.a`, {
                link: (chunks) => <Link href={localizePath('/invoice.html', locale)}>{chunks}</Link>,
              })}
            </p>
          </details>
        ))}
      </div>
    </section>
  );
}

export async function BuyPage({ locale, route }: { locale: Locale; route: BuyRoute }) {
  const def = BUY_PAGES[route];
  const t = await getTranslations({ locale, namespace: 'buy' });
  const copy = `products.${def.key}` as const;
  const highlights = (t.raw(`${copy}.highlights`) as unknown[]).filter((item): item is string => typeof item === 'string');
  const features = featuresOf(t.raw(`${copy}.features`));
  const benefits = benefitRowsOf(t.raw(`${copy}.benefits`));
  const mark = (value: string) => {
    const cell = benefitCellOf(value);
    if (cell.kind === 'text') return cell.text;
    return cell.kind === 'yes' ? (
      <span className={styles.yes} role="img" aria-label={t('page.yes')}>
        <CheckIcon size={18} />
      </span>
    ) : (
      <span className={styles.no} role="img" aria-label={t('page.no')}>
        —
      </span>
    );
  };

  return (
    <PageFrame locale={locale} name={route}>
      <div className={styles.page} data-testid="buy-page" data-route={route}>
        <div className={styles.top}>
          <section className={styles.intro} aria-labelledby="buy-product">
            <div className={styles.introHead}>
              <span className={styles.productIcon} aria-hidden="true">
                <MenuGlyph name={def.glyph} size={36} />
              </span>
              <h2 id="buy-product" className={styles.productName} data-testid="buy-product-name">
                {t(`${copy}.name`)}
              </h2>
            </div>
            <p className={styles.tagline}>{t(`${copy}.tagline`)}</p>
            <ul className={styles.highlights}>
              {highlights.map((item) => (
                <li key={item}>
                  <CheckIcon size={16} />
                  {item}
                </li>
              ))}
            </ul>
            <Link className={styles.tryLink} href={localizePath(def.tryPath, locale)}>
              {t(`${copy}.try`)}
              <ArrowRightIcon size={16} />
            </Link>
          </section>
          <section className={styles.planCard} aria-labelledby="buy-plans" data-testid="buy-plans">
            <h2 id="buy-plans" className={styles.planTitle}>
              {t('page.plansTitle')}
            </h2>
            <Plans locale={locale} route={route} />
          </section>
          <div className={styles.topService}>
            <ServiceStrip locale={locale} isStacked />
          </div>
        </div>

        <section className={styles.section} aria-labelledby="buy-features" data-testid="buy-features">
          <h2 id="buy-features" className={styles.sectionTitle}>
            {t('page.featuresTitle')}
          </h2>
          <ul className={styles.features}>
            {features.map((feature) => (
              <li key={feature.title} className={styles.feature}>
                <h3 className={styles.featureTitle}>{feature.title}</h3>
                <p className={styles.featureText}>{feature.text}</p>
              </li>
            ))}
          </ul>
        </section>

        <section className={styles.section} aria-labelledby="buy-benefits" data-testid="buy-benefits">
          <h2 id="buy-benefits" className={styles.sectionTitle}>
            {t('page.benefitsTitle')}
          </h2>
          <div className={styles.tableWrap}>
            <table className={styles.table}>
              <thead>
                <tr>
                  <th scope="col">{t('page.benefitsItem')}</th>
                  <th scope="col">{t('page.free')}</th>
                  <th scope="col" className={styles.memberColumn}>
                    {t('page.member')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {benefits.map((row) => (
                  <tr key={row.item}>
                    <th scope="row">{row.item}</th>
                    <td>{mark(row.free)}</td>
                    <td className={styles.memberColumn}>{mark(row.member)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>

        <Faq locale={locale} />
      </div>
    </PageFrame>
  );
}
