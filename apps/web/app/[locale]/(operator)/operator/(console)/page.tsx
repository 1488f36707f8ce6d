import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { canUseSection, OPERATOR_SECTIONS } from '@xcad/protocol';
import styles from '@/components/operator/console/console.module.css';
import { resolveRoute, type RouteProps } from '@/components/page/route-page';
import Link from '@/components/ui/link';
import { routeMetadata } from '@/lib/metadata';
import { BUILT_SECTIONS } from '@/lib/operator/sections';
import { requireOperator } from '@/lib/operator/server';

// Decision 0042: the console's first page (概览), for every role.

const NAME = 'operator';

export async function generateMetadata(props: RouteProps): Promise<Metadata> {
  const route = await resolveRoute(NAME, props);
  return { ...(await routeMetadata(route.locale, NAME)), robots: { index: false, follow: false } };
}

export default async function OperatorOverviewPage(props: RouteProps) {
  await resolveRoute(NAME, props);
  const me = await requireOperator('overview');
  const t = await getTranslations({ locale: 'zh-CN', namespace: 'console' });
  const sections = BUILT_SECTIONS.filter((section) => section !== 'overview' && canUseSection(me.roles, section));
  return (
    <>
      <h1 className={styles.pageTitle}>{t('overview.welcome', { name: me.nickname || me.maskedPhone })}</h1>
      <section className={styles.panel}>
        <h2 className={styles.panelTitle}>{t('overview.shortcuts')}</h2>
        <p className={styles.muted}>{t('overview.text')}</p>
        <div className={styles.cards}>
          {sections.map((section) => (
            <Link key={section} href={OPERATOR_SECTIONS[section].path} className={styles.card}>
              {t(`sections.${section}`)}
            </Link>
          ))}
        </div>
      </section>
    </>
  );
}
