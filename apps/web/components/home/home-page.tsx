import { LAYOUT, PAY_PACKAGES } from '@xcad/protocol';
import Link from '@/components/ui/link';
import { getTranslations } from 'next-intl/server';
import { MenuGlyph } from '@/components/site/menu-glyph';
import { Carousel } from '@/components/ui/carousel';
import { ArrowRightIcon, BoltIcon, CheckIcon, DevicesIcon, DownloadIcon, HeadsetIcon, LayersIcon } from '@/components/ui/icons';
import { newestPictures } from '@/components/dailypic/dailypic-data';
import dailypicStyles from '@/components/dailypic/dailypic.module.css';
import { dailypicPath } from '@/lib/content/dailypics';
import { latestGuides } from '@/lib/content/latest-guides';
import { localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import { articlePath, GUIDES_INDEX_PATH } from '@/lib/navigation/footer-links';
import {
  DAILYPIC_INDEX_PATH,
  HOME_DAILYPIC_COUNT,
  HOME_GUIDE_FALLBACK_LINKS,
  HOME_PRODUCTS,
  HOME_SLIDES,
} from '@/lib/navigation/home-links';
import { MENU } from '@/lib/navigation/menu';
import { BannerSlide } from './banner-slide';
import { DrawingThumb } from './drawing-thumbs';
import styles from './home-page.module.css';

const POINT_KEYS = ['a', 'b', 'c'] as const;

const VALUE_ITEMS = [
  { key: 'formats', Icon: LayersIcon },
  { key: 'batch', Icon: BoltIcon },
  { key: 'devices', Icon: DevicesIcon },
  { key: 'service', Icon: HeadsetIcon },
] as const;

function priceOf(id: (typeof PAY_PACKAGES)[number]['id']): number {
  return PAY_PACKAGES.find((pack) => pack.id === id)?.price ?? 0;
}

/** The landing page: product banners, online tools, the product family, guides and daily drawings. */
export async function HomePage({ locale }: { readonly locale: Locale }) {
  const t = await getTranslations({ locale, namespace: 'home' });
  const tHeader = await getTranslations({ locale, namespace: 'header' });
  const tDailypic = await getTranslations({ locale, namespace: 'dailypic' });
  const [guides, pictures] = await Promise.all([latestGuides(LAYOUT.footerGuideCount), newestPictures(HOME_DAILYPIC_COUNT)]);
  const href = (path: string) => localizePath(path, locale);
  const tools = MENU.find((item) => item.key === 'tools')?.children ?? [];
  const prices = { price: priceOf('lifetime'), yearPrice: priceOf('year') };
  const slideTitles = HOME_SLIDES.map((slide) => t(`carousel.slides.${slide.key}.title`, prices));

  return (
    <div className={styles.home}>
      <Carousel
        className={styles.hero}
        label={t('carousel.label')}
        prevLabel={t('carousel.prev')}
        nextLabel={t('carousel.next')}
        indicatorLabels={slideTitles.map((title, index) => t('carousel.goTo', { index: index + 1, title }))}
      >
        {HOME_SLIDES.map((slide, index) => (
          <BannerSlide
            key={slide.key}
            slideKey={slide.key}
            isFirst={index === 0}
            eyebrow={t(`carousel.slides.${slide.key}.eyebrow`)}
            title={slideTitles[index] ?? ''}
            subtitle={t(`carousel.slides.${slide.key}.subtitle`, prices)}
            points={POINT_KEYS.map((point) => t(`carousel.slides.${slide.key}.points.${point}`))}
            primary={{ label: t(`carousel.slides.${slide.key}.primary`), href: href(slide.primary) }}
            secondary={{ label: t(`carousel.slides.${slide.key}.secondary`), href: href(slide.secondary) }}
          />
        ))}
      </Carousel>

      <section className={styles.quick} aria-label={t('quick.label')}>
        <ul className={styles.quickList}>
          {tools.map((tool) => (
            <li key={tool.key}>
              <Link href={href(tool.href)} className={styles.quickLink}>
                <span className={styles.quickIcon} data-icon={tool.icon}>
                  <MenuGlyph name={tool.icon} size={24} />
                </span>
                <span className={styles.quickText}>
                  <span className={styles.quickTitle}>{tHeader(`menu.tools.items.${tool.key}.title`)}</span>
                  <span className={styles.quickDesc}>{tHeader(`menu.tools.items.${tool.key}.desc`)}</span>
                </span>
                <ArrowRightIcon size={16} className={styles.quickArrow} />
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section className={styles.section} aria-labelledby="home-products">
        <header className={styles.sectionHead}>
          <h2 id="home-products" className={styles.sectionTitle}>
            {t('products.title')}
          </h2>
          <p className={styles.sectionSubtitle}>{t('products.subtitle')}</p>
        </header>
        <ul className={styles.products}>
          {HOME_PRODUCTS.map((product) => (
            <li key={product.key} className={styles.product} data-product={product.key}>
              <div className={styles.productHead}>
                <span className={styles.productIcon}>
                  <MenuGlyph name={product.key} size={26} />
                </span>
                <h3 className={styles.productName}>{t(`products.items.${product.key}.name`)}</h3>
                {product.isPopular && <span className={styles.badge}>{t('products.hot')}</span>}
              </div>
              <p className={styles.productDesc}>{t(`products.items.${product.key}.desc`)}</p>
              <ul className={styles.tags}>
                {POINT_KEYS.map((tag) => (
                  <li key={tag}>
                    <CheckIcon size={12} />
                    {t(`products.items.${product.key}.tags.${tag}`)}
                  </li>
                ))}
              </ul>
              <div className={styles.productActions}>
                <Link href={href(product.primary.href)} className={styles.productPrimary}>
                  {product.primary.label === 'download' && <DownloadIcon size={15} />}
                  {t(`products.${product.primary.label}`)}
                </Link>
                <Link href={href(product.secondary.href)} className={styles.productSecondary}>
                  {t(`products.${product.secondary.label}`)}
                  <ArrowRightIcon size={14} />
                </Link>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section className={styles.values} aria-labelledby="home-values">
        <div className={styles.valuesInner}>
          <h2 id="home-values" className="visually-hidden">
            {t('values.title')}
          </h2>
          <ul className={styles.valueList}>
            {VALUE_ITEMS.map(({ key, Icon }) => (
              <li key={key} className={styles.value}>
                <span className={styles.valueIcon}>
                  <Icon size={24} />
                </span>
                <span>
                  <span className={styles.valueTitle}>{t(`values.items.${key}.title`)}</span>
                  <span className={styles.valueDesc}>{t(`values.items.${key}.desc`)}</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <div className={styles.split}>
        <section className={styles.panel} aria-labelledby="home-guides">
          <header className={styles.panelHead}>
            <div>
              <h2 id="home-guides" className={styles.panelTitle}>
                {t('guides.title')}
              </h2>
              <p className={styles.panelSubtitle}>{t('guides.subtitle')}</p>
            </div>
            <Link href={href(GUIDES_INDEX_PATH)} className={styles.panelMore}>
              {t('guides.more')}
              <ArrowRightIcon size={14} />
            </Link>
          </header>
          {guides.length > 0 ? (
            <ol className={styles.guides}>
              {guides.map((guide, index) => (
                <li key={guide.id}>
                  <Link href={href(articlePath(guide.id))} className={styles.guide}>
                    <span className={styles.guideRank} data-top={index < 3}>
                      {index + 1}
                    </span>
                    <span className={styles.guideTitle}>{guide.title}</span>
                    {guide.modified !== '' && <time className={styles.guideDate}>{guide.modified.slice(0, 10)}</time>}
                  </Link>
                </li>
              ))}
            </ol>
          ) : (
            <div className={styles.guidesEmpty}>
              <p className={styles.guidesEmptyTitle}>{t('guides.emptyTitle')}</p>
              <p>{t('guides.emptyText')}</p>
              <ul className={styles.guidesEmptyLinks}>
                {HOME_GUIDE_FALLBACK_LINKS.map((link) => (
                  <li key={link.key}>
                    <Link href={href(link.href)}>{t(`guides.emptyLinks.${link.key}`)}</Link>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </section>

        <section className={styles.panel} aria-labelledby="home-dailypic">
          <header className={styles.panelHead}>
            <div>
              <h2 id="home-dailypic" className={styles.panelTitle}>
                {t('dailypic.title')}
              </h2>
              <p className={styles.panelSubtitle}>{t('dailypic.subtitle')}</p>
            </div>
            <Link href={href(DAILYPIC_INDEX_PATH)} className={styles.panelMore}>
              {t('dailypic.more')}
              <ArrowRightIcon size={14} />
            </Link>
          </header>
          <ul className={styles.pics} data-testid="home-dailypics">
            {pictures.length === 0 && (
              <li className={dailypicStyles.homeEmpty}>
                <Link href={href(DAILYPIC_INDEX_PATH)}>{tDailypic('homeMore')}</Link>
              </li>
            )}
            {pictures.map((picture) => (
              <li key={picture.id}>
                <Link href={href(dailypicPath(picture.id))} className={styles.pic} data-testid="home-dailypic">
                  <span className={styles.picThumb}>
                    <DrawingThumb picture={picture} alt={tDailypic('previewAlt', { title: picture.title })} />
                  </span>
                  <span className={styles.picCaption}>
                    {picture.tags[0] !== undefined && <span className={styles.picTag}>{picture.tags[0].name}</span>}
                    <span className={styles.picTitle}>{picture.title}</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      </div>

      <section className={styles.cta} aria-labelledby="home-cta">
        <div className={styles.ctaInner}>
          <div>
            <h2 id="home-cta" className={styles.ctaTitle}>
              {t('cta.title')}
            </h2>
            <p className={styles.ctaSubtitle}>{t('cta.subtitle')}</p>
          </div>
          <div className={styles.ctaActions}>
            <Link href={href('/download.html')} className={styles.ctaPrimary}>
              <DownloadIcon size={18} />
              {t('cta.button')}
            </Link>
            <Link href={href('/tools.html')} className={styles.ctaSecondary}>
              {t('cta.secondary')}
            </Link>
            <p className={styles.ctaNote}>{t('cta.note')}</p>
          </div>
        </div>
      </section>
    </div>
  );
}
