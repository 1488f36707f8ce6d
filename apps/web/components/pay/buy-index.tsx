import Link from '@/components/ui/link';
import { getTranslations } from 'next-intl/server';
import { formatYuan } from '@xcad/protocol';
import { PageFrame } from '@/components/page/page-frame';
import { MenuGlyph } from '@/components/site/menu-glyph';
import { ArrowRightIcon } from '@/components/ui/icons';
import { localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import { BUY_PAGES, BUY_ROUTES, buyPathOf } from '@/lib/pay/buy-pages';
import { loadPayCatalogue } from '@/lib/pay/catalogue';
import { bundleItemsOf, lowestPrice, plansOf, productsById } from '@/lib/pay/plans';
import { BundleCard } from './bundle-card';
import { CatalogueUnavailable, ServiceStrip } from './buy-page';
import styles from './buy.module.css';

// /buy.html (spec §2, decision 0018): every product as a card leading to its buy page, with its lowest
// price, and the bundles bought as one order.

export async function BuyIndex({ locale }: { locale: Locale }) {
  const [t, catalogue] = await Promise.all([getTranslations({ locale, namespace: 'buy' }), loadPayCatalogue()]);
  const products = catalogue.state === 'found' ? catalogue.products : [];
  const bundles = catalogue.state === 'found' ? catalogue.bundles : [];
  const cards = BUY_ROUTES.map((route) => {
    const def = BUY_PAGES[route];
    const plans = productsById(products, def.productIds).flatMap((product) => plansOf(product, def.channel));
    return { def, from: lowestPrice(plans) };
  });

  return (
    <PageFrame locale={locale} name="buy" showRelated={false}>
      <div className={styles.page} data-testid="buy-index">
        {catalogue.state !== 'found' && <CatalogueUnavailable locale={locale} path="/buy.html" />}
        <section className={styles.section} aria-labelledby="buy-products">
          <h2 id="buy-products" className={styles.sectionTitle}>
            {t('index.productsTitle')}
          </h2>
          <p className={styles.sectionLead}>{t('index.productsLead')}</p>
          <ul className={styles.productGrid}>
            {cards.map(({ def, from }) => (
              <li key={def.route}>
                <Link
                  className={styles.productCard}
                  href={localizePath(buyPathOf(def.route), locale)}
                  data-testid={`product-card-${def.key}`}
                >
                  <span className={styles.cardHead}>
                    <span className={styles.cardIcon} aria-hidden="true">
                      <MenuGlyph name={def.glyph} size={28} />
                    </span>
                    <span className={styles.cardName}>{t(`products.${def.key}.name`)}</span>
                  </span>
                  <span className={styles.cardText}>{t(`products.${def.key}.short`)}</span>
                  <span className={styles.cardFoot}>
                    {from !== null && <span className={styles.cardFrom}>{t('index.from', { price: formatYuan(from) })}</span>}
                    <span className={styles.cardView}>
                      {t('index.view')}
                      <ArrowRightIcon size={16} />
                    </span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </section>

        {bundles.length > 0 && (
          <section className={styles.section} aria-labelledby="buy-bundles" data-testid="buy-bundles">
            <h2 id="buy-bundles" className={styles.sectionTitle}>
              {t('index.bundlesTitle')}
            </h2>
            <p className={styles.sectionLead}>{t('index.bundlesLead')}</p>
            <ul className={styles.bundleGrid}>
              {bundles.map((bundle) => (
                <li key={bundle.realId}>
                  <BundleCard bundle={bundle} items={bundleItemsOf(bundle, products)} />
                </li>
              ))}
            </ul>
          </section>
        )}

        <ServiceStrip locale={locale} />
      </div>
    </PageFrame>
  );
}
