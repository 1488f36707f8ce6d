import Link from '@/components/ui/link';
import { getTranslations } from 'next-intl/server';
import { Breadcrumb } from '@/components/page/breadcrumb';
import { MenuGlyph } from '@/components/site/menu-glyph';
import { ArrowRightIcon, CheckIcon, ShieldIcon } from '@/components/ui/icons';
import { siteConfig } from '@/config/site';
import { localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import type { MenuIconName } from '@/lib/navigation/menu';
import { helpLinksOf, loadSoftware } from '@/lib/software/software-api';
import { DOWNLOAD_ROUTES, formatSize, helpPath, isMobileApp, type DownloadRoute, type Software } from '@/lib/software/software';
import { Changelog } from './changelog';
import { DownloadButtons } from './download-buttons';
import { DownloadCount } from './download-count';
import { PlatformIcon } from './platform-icon';
import { QrCodes } from './qr-codes';
import styles from './download.module.css';

// Decision 0012: one page for any of the nine download routes (spec §2), rendered on the server from
// `GET /api/site/software/{route}`: the product, its current release and files, the download
// buttons (counting URLs), requirements, features, the change log, help and purchase links.

const GLYPHS: Readonly<Record<DownloadRoute, MenuIconName>> = {
  download: 'editor',
  'download-major': 'editor',
  'download-converter': 'converter',
  'download-lookchart': 'viewer',
  'download-holdall': 'toolbox',
  'download-cadapp': 'mobile',
  'download-cadkantuapp': 'mobile',
  'download-converter-app': 'mobile',
  'download-mobile-lookchart': 'mobile',
};

const HELP_INDEX_PATH = '/help.html';

async function Hero({ locale, route, software }: { locale: Locale; route: DownloadRoute; software: Software }) {
  const t = await getTranslations({ locale, namespace: 'download' });
  const [first] = software.files;
  const isMobile = isMobileApp(software);
  const platformNames = software.files.map((file) => t(`platform.${file.platform}`)).join(' / ');
  return (
    <section className={styles.hero} aria-labelledby="download-name">
      <div className="container">
        <Breadcrumb locale={locale} name={route} />
        <div className={styles.heroGrid}>
          <div className={styles.heroMain}>
            <div className={styles.titleRow}>
              <span className={styles.productIcon} aria-hidden="true">
                <MenuGlyph name={GLYPHS[route]} size={40} />
              </span>
              <div className={styles.titleText}>
                <h1 id="download-name" className={styles.name} data-testid="download-name">
                  {software.name}
                  <span className={styles.nameVersion}>V{software.version}</span>
                </h1>
                <p className={styles.tagline}>{software.tagline}</p>
              </div>
            </div>
            <dl className={styles.facts} aria-label={t('facts.label')}>
              <div className={styles.fact}>
                <dt>{t('facts.version')}</dt>
                <dd data-testid="download-version">{software.version}</dd>
              </div>
              {first !== undefined && (
                <div className={styles.fact}>
                  <dt>{t('facts.size')}</dt>
                  <dd data-testid="download-size">{formatSize(first.size)}</dd>
                </div>
              )}
              <div className={styles.fact}>
                <dt>{t('facts.date')}</dt>
                <dd>
                  <time dateTime={software.releasedAt} data-testid="download-date">
                    {software.releasedAt}
                  </time>
                </dd>
              </div>
              <div className={`${styles.fact} ${styles.factWide}`}>
                <dt>{t('facts.system')}</dt>
                <dd>{platformNames}</dd>
              </div>
            </dl>
            <DownloadButtons
              software={software.key}
              files={software.files.map((file) => ({
                platform: file.platform,
                url: file.url,
                size: formatSize(file.size),
                bytes: file.size,
                fileName: file.fileName,
                sha256: file.sha256,
                isStore: file.isStore,
              }))}
            />
            <p className={styles.trust}>
              <span className={styles.countChip}>
                <DownloadCount productKey={software.key} initial={software.downloads} />
              </span>
              <span className={styles.trustItem}>
                <ShieldIcon size={16} />
                {t('trust.official')}
              </span>
              <span className={styles.trustItem}>
                <CheckIcon size={16} />
                {t('trust.noBundle')}
              </span>
            </p>
          </div>
          <div className={styles.heroSide}>
            {isMobile ? <QrCodes locale={locale} files={software.files} /> : <FilesCard locale={locale} software={software} />}
          </div>
        </div>
      </div>
    </section>
  );
}

async function FilesCard({ locale, software }: { locale: Locale; software: Software }) {
  const t = await getTranslations({ locale, namespace: 'download' });
  return (
    <section className={styles.sideCard} aria-labelledby="download-files" data-testid="download-files">
      <h2 id="download-files" className={styles.sideTitle}>
        {t('files.title')}
      </h2>
      <ul className={styles.fileList}>
        {software.files.map((file) => (
          <li key={file.platform} className={styles.fileItem}>
            <PlatformIcon platform={file.platform} className={styles.fileIcon} />
            <span className={styles.fileText}>
              <span className={styles.filePlatform}>{t(`platform.${file.platform}`)}</span>
              <span className={styles.fileName}>{file.fileName ?? t('files.store')}</span>
            </span>
            <span className={styles.fileSize} title={t('files.bytes', { bytes: file.size })}>
              {formatSize(file.size)}
            </span>
            {file.sha256 !== null && (
              <span className={styles.fileHash} data-testid={`download-sha256-${file.platform}`}>
                <span className={styles.fileHashLabel}>{t('files.sha256')}</span>
                <code>{file.sha256}</code>
              </span>
            )}
          </li>
        ))}
      </ul>
      <p className={styles.sideNote}>{t('files.check')}</p>
    </section>
  );
}

async function Requirements({ locale, software }: { locale: Locale; software: Software }) {
  const t = await getTranslations({ locale, namespace: 'download' });
  if (software.requirements.length === 0) return null;
  return (
    <section className={styles.section} aria-labelledby="download-requirements" data-testid="download-requirements">
      <h2 id="download-requirements" className={styles.sectionTitle}>
        {t('requirements.title')}
      </h2>
      <div className={styles.tableWrap}>
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">{t('requirements.item')}</th>
              <th scope="col">{t('requirements.minimum')}</th>
              <th scope="col">{t('requirements.recommended')}</th>
            </tr>
          </thead>
          <tbody>
            {software.requirements.map((row) => (
              <tr key={row.item}>
                <th scope="row">{row.item}</th>
                {row.recommended === null ? (
                  <td colSpan={2}>{row.minimum}</td>
                ) : (
                  <>
                    <td data-label={t('requirements.minimum')}>{row.minimum}</td>
                    <td data-label={t('requirements.recommended')}>{row.recommended}</td>
                  </>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

async function Features({ locale, software }: { locale: Locale; software: Software }) {
  const t = await getTranslations({ locale, namespace: 'download' });
  if (software.features.length === 0) return null;
  return (
    <section className={styles.section} aria-labelledby="download-features" data-testid="download-features">
      <h2 id="download-features" className={styles.sectionTitle}>
        {t('features.title')}
      </h2>
      <ul className={styles.features}>
        {software.features.map((feature) => (
          <li key={feature.title} className={styles.feature}>
            <span className={styles.featureMark} aria-hidden="true">
              <CheckIcon size={18} />
            </span>
            <h3 className={styles.featureTitle}>{feature.title}</h3>
            <p className={styles.featureText}>{feature.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

async function Aside({ locale, route, software }: { locale: Locale; route: DownloadRoute; software: Software }) {
  const [t, pages, help] = await Promise.all([
    getTranslations({ locale, namespace: 'download' }),
    getTranslations({ locale, namespace: 'pages' }),
    helpLinksOf(software.help),
  ]);
  const href = (path: string) => localizePath(path, locale);
  return (
    <aside className={styles.aside}>
      <section className={styles.sideCard} aria-labelledby="download-help" data-testid="download-help">
        <h2 id="download-help" className={styles.sideTitle}>
          {t('help.title')}
        </h2>
        {help.length > 0 && (
          <ul className={styles.linkList}>
            {help.map((article) => (
              <li key={article.id}>
                <Link href={href(helpPath(article.id))}>{article.title}</Link>
              </li>
            ))}
          </ul>
        )}
        <Link className={styles.moreLink} href={href(HELP_INDEX_PATH)}>
          {t('help.more')}
          <ArrowRightIcon size={16} />
        </Link>
      </section>
      {software.buyPath !== null && (
        <section className={`${styles.sideCard} ${styles.buyCard}`} aria-labelledby="download-buy" data-testid="download-buy">
          <h2 id="download-buy" className={styles.sideTitle}>
            {t('buy.title')}
          </h2>
          <p className={styles.sideText}>{t('buy.text')}</p>
          <Link className={styles.buyButton} href={href(software.buyPath)}>
            {t('buy.link')}
          </Link>
        </section>
      )}
      <nav className={styles.sideCard} aria-labelledby="download-others">
        <h2 id="download-others" className={styles.sideTitle}>
          {t('others.title')}
        </h2>
        <ul className={styles.otherList}>
          {DOWNLOAD_ROUTES.filter((other) => other !== route).map((other) => (
            <li key={other}>
              <Link href={href(`/${other}.html`)}>
                <MenuGlyph name={GLYPHS[other]} size={18} />
                {pages(`${other}.title`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </aside>
  );
}

/** The API could not be reached (or has no such product yet): say so, never a crash. */
async function Unavailable({ locale, route }: { locale: Locale; route: DownloadRoute }) {
  const [t, pages] = await Promise.all([
    getTranslations({ locale, namespace: 'download' }),
    getTranslations({ locale, namespace: 'pages' }),
  ]);
  return (
    <div className={styles.page} data-testid="download-page" data-state="unavailable">
      <section className={styles.hero}>
        <div className="container">
          <Breadcrumb locale={locale} name={route} />
          <h1 className={`${styles.name} ${styles.unavailableTitle}`}>{pages(`${route}.title`)}</h1>
          <div className={styles.unavailable} role="status" data-testid="download-unavailable">
            <h2 className={styles.sectionTitle}>{t('unavailable.title')}</h2>
            <p>{t('unavailable.text', { phone: siteConfig().phones[0] ?? '' })}</p>
            <p className={styles.unavailableLinks}>
              <a className={styles.buyButton} href={localizePath(`/${route}.html`, locale)}>
                {t('unavailable.retry')}
              </a>
              <Link href={localizePath(helpPath(1001), locale)}>{t('unavailable.help')}</Link>
            </p>
          </div>
        </div>
      </section>
    </div>
  );
}

export async function DownloadPage({ locale, route }: { locale: Locale; route: DownloadRoute }) {
  const load = await loadSoftware(route);
  if (load.state !== 'found') return <Unavailable locale={locale} route={route} />;
  const { software } = load;
  return (
    <div className={styles.page} data-testid="download-page" data-key={software.key}>
      <Hero locale={locale} route={route} software={software} />
      <div className={`container ${styles.body}`}>
        <div className={styles.main}>
          <Features locale={locale} software={software} />
          <Requirements locale={locale} software={software} />
          <Changelog locale={locale} releases={software.changelog} />
        </div>
        <Aside locale={locale} route={route} software={software} />
      </div>
    </div>
  );
}
