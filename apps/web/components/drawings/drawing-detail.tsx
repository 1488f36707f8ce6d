import Link from '@/components/ui/link';
import type { ReactNode } from 'react';
import { getTranslations } from 'next-intl/server';
import type { TDrawingDetail } from '@xcad/protocol';
import { Breadcrumb } from '@/components/page/breadcrumb';
import { formatBytes, listHref, paragraphsOf } from '@/lib/drawings/drawings';
import { localizePath } from '@/lib/i18n/locales';
import { VIEWER_PATH, viewerHref } from '@/lib/viewer/source';
import type { Locale } from '@/lib/i18n/locales';
import { DrawingCard } from './drawing-card';
import { DownloadPanel } from './download-panel';
import { DrawingViewCounter } from './drawing-view-counter';
import styles from './drawings.module.css';

// spec §2 `/dwgItem/{id}` (decision 0012): a drawing's large preview, facts, tags, description, the
// download (free, or for drawing library members), and other drawings of its category.

const LIST_PATH = '/dwglist';
const BUY_PATH = '/buy/cadtuku.html';

export async function DrawingDetail({ locale, drawing }: { locale: Locale; drawing: TDrawingDetail }) {
  const t = await getTranslations({ locale, namespace: 'drawings' });
  const listBase = localizePath(LIST_PATH, locale);
  const noFilters = { q: '', page: 1 } as const;
  const categoryHref = listHref(listBase, noFilters, { category: drawing.category.slug });
  const rows: Array<[string, ReactNode]> = [
    [
      t('metaCategory'),
      <Link key="category" href={categoryHref}>
        {drawing.category.name}
      </Link>,
    ],
    [t('metaFormat'), drawing.format],
    [t('metaVersion'), t('versionValue', { version: drawing.version })],
    [t('metaSize'), formatBytes(drawing.sizeBytes)],
    [t('metaDate'), drawing.date],
    [t('metaAccess'), drawing.isMemberOnly ? t('metaMember') : t('metaFree')],
    [t('metaDownloads'), drawing.downloads],
    [t('metaViews'), drawing.views],
  ];
  return (
    <article className={`container ${styles.detail}`} data-testid="drawing-detail" data-id={drawing.id}>
      <DrawingViewCounter id={drawing.id} />
      <Breadcrumb locale={locale} name="dwgItem-id" params={{ id: String(drawing.id) }} />
      <h1 className={styles.detailTitle}>{drawing.title}</h1>
      <div className={styles.detailGrid}>
        <div className={styles.detailPreview}>
          <figure className={styles.preview}>
            {/* eslint-disable-next-line @next/next/no-img-element -- previews are served by the API's storage, not next/image */}
            <img
              src={drawing.preview}
              alt={t('previewAlt', { title: drawing.title })}
              width={960}
              height={720}
              fetchPriority="high"
              data-testid="drawing-preview"
            />
            <figcaption className={styles.previewCaption}>{t('previewCaption')}</figcaption>
          </figure>
        </div>
        <aside className={styles.panel} aria-labelledby="drawing-meta">
          <h2 id="drawing-meta" className={styles.panelHeading}>
            {t('metaHeading')}
          </h2>
          <table className={styles.metaTable} data-testid="drawing-meta">
            <tbody>
              {rows.map(([name, value]) => (
                <tr key={name}>
                  <th scope="row">{name}</th>
                  <td>{value}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <DownloadPanel
            fileUrl={drawing.fileUrl}
            fileName={drawing.fileName}
            format={drawing.format}
            isMemberOnly={drawing.isMemberOnly}
            buyHref={localizePath(BUY_PATH, locale)}
          />
          <Link
            className={styles.secondary}
            href={viewerHref(localizePath(VIEWER_PATH, locale), drawing.fileUrl, drawing.fileName)}
            data-testid="drawing-open-viewer"
          >
            {t('openViewer')}
          </Link>
          <Link className={styles.secondary} href={listBase}>
            {t('backToLibrary')}
          </Link>
          <div>
            <h3 className={styles.panelHeading}>{t('creditHeading')}</h3>
            <p className={styles.credit}>{drawing.credit}</p>
          </div>
        </aside>
        <div className={styles.detailBody}>
          <section className={styles.section} aria-labelledby="drawing-description">
            <h2 id="drawing-description" className={styles.sectionHeading}>
              {t('descriptionHeading')}
            </h2>
            <div className={styles.description} data-testid="drawing-description">
              {paragraphsOf(drawing.description).map((paragraph, index) => (
                <p key={index}>{paragraph}</p>
              ))}
            </div>
          </section>
          {drawing.tags.length > 0 && (
            <section className={styles.section} aria-labelledby="drawing-tags">
              <h2 id="drawing-tags" className={styles.sectionHeading}>
                {t('tagsHeading')}
              </h2>
              <ul className={styles.tags}>
                {drawing.tags.map((tag) => (
                  <li key={tag}>
                    <Link className={styles.tag} href={listHref(listBase, noFilters, { q: tag })}>
                      {tag}
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </div>
      </div>
      {drawing.related.length > 0 && (
        <section className={styles.section} aria-labelledby="drawing-related">
          <h2 id="drawing-related" className={styles.sectionHeading}>
            {t('relatedHeading')}
          </h2>
          <ul className={`${styles.grid} ${styles.relatedGrid}`} data-testid="drawing-related">
            {drawing.related.map((other) => (
              <li key={other.id}>
                <DrawingCard locale={locale} drawing={other} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}
