import type { DailypicSummary } from '@/lib/content/dailypics';
import styles from '@/components/dailypic/dailypic.module.css';

// The home teaser's thumbnail of a daily picture: its real preview (rendered from the drawing by
// scripts/content/drawing-previews.py, 960 x 720), cropped to the teaser's frame.

export function DrawingThumb({ picture, alt }: { readonly picture: DailypicSummary; readonly alt: string }) {
  if (picture.image === '') return <span className={styles.homeThumb} aria-hidden="true" />;
  return (
    // eslint-disable-next-line @next/next/no-img-element -- previews are served by the API's storage, not next/image
    <img className={styles.homeThumb} src={picture.image} alt={alt} width={960} height={720} loading="lazy" decoding="async" />
  );
}
