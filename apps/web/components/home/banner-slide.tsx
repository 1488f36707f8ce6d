import Image from 'next/image';
import Link from '@/components/ui/link';
import { ArrowRightIcon, CheckIcon } from '@/components/ui/icons';
import type { HomeSlideKey } from '@/lib/navigation/home-links';
import styles from './home-page.module.css';

export interface BannerSlideProps {
  readonly slideKey: HomeSlideKey;
  readonly eyebrow: string;
  readonly title: string;
  readonly subtitle: string;
  readonly points: readonly string[];
  readonly primary: { readonly label: string; readonly href: string };
  readonly secondary: { readonly label: string; readonly href: string };
  /** Only the first slide's heading is the page's h1. */
  readonly isFirst: boolean;
}

/** One banner of the home carousel: copy on the left, the product's illustration on the right. */
export function BannerSlide({ slideKey, eyebrow, title, subtitle, points, primary, secondary, isFirst }: BannerSlideProps) {
  const Heading = isFirst ? 'h1' : 'h2';
  return (
    <div className={styles.slide} data-slide={slideKey}>
      <div className={styles.slideInner}>
        <div className={styles.slideCopy}>
          <p className={styles.eyebrow}>{eyebrow}</p>
          <Heading className={styles.slideTitle}>{title}</Heading>
          <p className={styles.slideSubtitle}>{subtitle}</p>
          <ul className={styles.points}>
            {points.map((point) => (
              <li key={point}>
                <CheckIcon size={16} />
                {point}
              </li>
            ))}
          </ul>
          <div className={styles.slideActions}>
            <Link href={primary.href} className={styles.slidePrimary}>
              {primary.label}
            </Link>
            <Link href={secondary.href} className={styles.slideSecondary}>
              {secondary.label}
              <ArrowRightIcon size={16} />
            </Link>
          </div>
        </div>
        {/* Decorative illustrations drawn for this site (public/home/*.svg), kept out of the HTML. */}
        <Image src={`/home/${slideKey}.svg`} alt="" width={560} height={340} unoptimized priority={isFirst} className={styles.slideArt} />
      </div>
    </div>
  );
}
