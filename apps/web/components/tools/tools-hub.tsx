import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { PageFrame } from '@/components/page/page-frame';
import { resolveRoute, type RouteProps } from '@/components/page/route-page';
import { BoltIcon, LayersIcon, ShieldIcon, SmartphoneIcon } from '@/components/ui/icons';
import { routeMetadata } from '@/lib/metadata';
import { ToolCards } from './tool-page';
import styles from './tools.module.css';

// /tools and /tools.html (spec §2, decision 0019): the four converters and the online viewer, each with
// what it takes and gives, and why one would convert here. Static.

interface Point {
  readonly title: string;
  readonly text: string;
}

const POINT_ICONS = [BoltIcon, LayersIcon, ShieldIcon, SmartphoneIcon] as const;

export function toolsHubPage(name: 'tools' | 'tools-index') {
  return {
    async generateMetadata(props: RouteProps): Promise<Metadata> {
      const route = await resolveRoute(name, props);
      // Both paths show one page: the canonical is /tools.html.
      return routeMetadata(route.locale, 'tools');
    },
    async Page(props: RouteProps) {
      const { locale } = await resolveRoute(name, props);
      const t = await getTranslations({ locale, namespace: 'tools.hub' });
      const points = t.raw('points') as Point[];
      return (
        <PageFrame locale={locale} name={name} showRelated={false}>
          <div className={styles.page} data-testid="tools-hub">
            <section aria-labelledby="tools-hub-title">
              <h2 id="tools-hub-title" className={styles.sectionTitle}>
                {t('title')}
              </h2>
              <p className={styles.sectionLead}>{t('lead')}</p>
              <ToolCards locale={locale} isLarge />
            </section>
            <section className={styles.section} aria-labelledby="tools-hub-points">
              <h2 id="tools-hub-points" className={styles.sectionTitle}>
                {t('pointsTitle')}
              </h2>
              <ul className={styles.points}>
                {points.map((point, index) => {
                  const Icon = POINT_ICONS[index % POINT_ICONS.length] ?? BoltIcon;
                  return (
                    <li key={point.title} className={styles.point}>
                      <span className={styles.pointIcon} aria-hidden="true">
                        <Icon size={22} />
                      </span>
                      <h3 className={styles.pointTitle}>{point.title}</h3>
                      <p className={styles.pointText}>{point.text}</p>
                    </li>
                  );
                })}
              </ul>
            </section>
          </div>
        </PageFrame>
      );
    },
  };
}
