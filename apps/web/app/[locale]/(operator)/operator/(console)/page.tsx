import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { canUseSection, OPERATOR_SECTIONS, ZDashboard, type TDashboardFigures, type TOperatorSection } from '@xcad/protocol';
import styles from '@/components/operator/console/console.module.css';
import { resolveRoute, type RouteProps } from '@/components/page/route-page';
import Link from '@/components/ui/link';
import { routeMetadata } from '@/lib/metadata';
import { yuanOf } from '@/lib/operator/format';
import { BUILT_SECTIONS } from '@/lib/operator/sections';
import { bodyOf, operatorRead, requireOperator } from '@/lib/operator/server';

// Decision 0042: the console's 概览, for every role: today and the last 7 days (visitors, sign-ups,
// paid orders and revenue, conversions and their failure rate) and what waits now (open tickets,
// invoices waiting, the conversion queue). A figure links to its list when the operator may open it.

const NAME = 'operator';

export async function generateMetadata(props: RouteProps): Promise<Metadata> {
  const route = await resolveRoute(NAME, props);
  return { ...(await routeMetadata(route.locale, NAME)), robots: { index: false, follow: false } };
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '0%' : `${((part / whole) * 100).toFixed(1)}%`;
}

export default async function OperatorOverviewPage(props: RouteProps) {
  await resolveRoute(NAME, props);
  const me = await requireOperator('overview', '/operator');
  const [board, t] = await Promise.all([
    operatorRead('/api/operator/dashboard', ZDashboard).then(bodyOf),
    getTranslations({ locale: 'zh-CN', namespace: 'console' }),
  ]);
  const hrefOf = (section: TOperatorSection): string | undefined =>
    BUILT_SECTIONS.includes(section) && canUseSection(me.roles, section) ? OPERATOR_SECTIONS[section].path : undefined;

  /** `section`'s list, or else (a section without pages yet) the report that has the figure. */
  function figure(key: string, label: string, value: ReactNode, section: TOperatorSection, fallback?: TOperatorSection) {
    const href = hrefOf(section) ?? (fallback === undefined ? undefined : hrefOf(fallback));
    const body = (
      <>
        <div className={styles.muted}>{label}</div>
        <div className={styles.figure} data-testid={`figure-${key}`}>
          {value}
        </div>
      </>
    );
    return href === undefined ? (
      <div key={key} className={styles.card}>
        {body}
      </div>
    ) : (
      <Link key={key} href={href} className={styles.card}>
        {body}
      </Link>
    );
  }

  function period(key: string, figures: TDashboardFigures) {
    return (
      <section className={styles.panel} data-testid={`period-${key}`}>
        <h2 className={styles.panelTitle}>{t(`overview.${key}`)}</h2>
        <div className={styles.cards}>
          {figure(`${key}-visitors`, t('overview.visitors'), figures.visitors, 'analytics')}
          {figure(`${key}-signups`, t('overview.signups'), figures.signups, 'users')}
          {figure(`${key}-orders`, t('overview.orders'), figures.orders, 'orders', 'analytics')}
          {figure(`${key}-revenue`, t('overview.revenue'), yuanOf(figures.revenueFen), 'orders', 'analytics')}
          {figure(`${key}-conversions`, t('overview.conversions'), figures.conversions, 'tasks', 'analytics')}
          {figure(
            `${key}-failures`,
            t('overview.failureRate'),
            percent(figures.conversionsFailed, figures.conversions),
            'tasks',
            'analytics',
          )}
        </div>
      </section>
    );
  }

  return (
    <>
      <h1 className={styles.pageTitle}>{t('overview.welcome', { name: me.nickname || me.maskedPhone })}</h1>
      {period('today', board.today)}
      {period('week', board.week)}
      <section className={styles.panel} data-testid="period-now">
        <h2 className={styles.panelTitle}>{t('overview.now')}</h2>
        <div className={styles.cards}>
          {figure('open-tickets', t('overview.openTickets'), board.openTickets, 'tickets')}
          {figure('invoices-waiting', t('overview.invoicesWaiting'), board.invoicesWaiting, 'invoices')}
          {figure('queued', t('overview.queued'), board.queued, 'tasks')}
          {figure('processing', t('overview.processing'), board.processing, 'tasks')}
        </div>
      </section>
      <p className={styles.muted}>{t('overview.note')}</p>
    </>
  );
}
