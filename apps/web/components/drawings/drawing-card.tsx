import { linkCardClass } from '@/components/ui/card';
import Link from '@/components/ui/link';
import { getTranslations } from 'next-intl/server';
import type { TDrawingListItem } from '@xcad/protocol';
import { formatBytes } from '@/lib/drawings/drawings';
import { localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import styles from './drawings.module.css';

const PREVIEW_WIDTH = 960;
const PREVIEW_HEIGHT = 720;

function drawingPath(id: number): string {
  return `/dwgItem/${id}`;
}

/** One drawing of a list: preview, format and version, free/member badge, title, size, downloads. */
export async function DrawingCard({ locale, drawing, isEager = false }: { locale: Locale; drawing: TDrawingListItem; isEager?: boolean }) {
  const t = await getTranslations({ locale, namespace: 'drawings' });
  return (
    <Link
      href={localizePath(drawingPath(drawing.id), locale)}
      className={linkCardClass(styles.tile)}
      data-testid="drawing-card"
      data-id={drawing.id}
    >
      <span className={styles.thumb}>
        {/* eslint-disable-next-line @next/next/no-img-element -- previews are served by the API's storage, not next/image */}
        <img
          src={drawing.preview}
          alt={t('previewAlt', { title: drawing.title })}
          width={PREVIEW_WIDTH}
          height={PREVIEW_HEIGHT}
          loading={isEager ? 'eager' : 'lazy'}
          decoding="async"
        />
        <span className={styles.formatBadge}>
          {drawing.format} · {drawing.version}
        </span>
        <span className={`${styles.accessBadge} ${drawing.isMemberOnly ? styles.member : styles.free}`} data-testid="drawing-access">
          {drawing.isMemberOnly ? t('badgeMember') : t('badgeFree')}
        </span>
      </span>
      <span className={styles.cardBody}>
        <span className={styles.cardTitle} data-testid="drawing-title">
          {drawing.title}
        </span>
        <span className={styles.cardMeta}>
          <span>{drawing.category.name}</span>
          <span>{formatBytes(drawing.sizeBytes)}</span>
          <span>{t('downloadsCount', { count: drawing.downloads })}</span>
        </span>
      </span>
    </Link>
  );
}
