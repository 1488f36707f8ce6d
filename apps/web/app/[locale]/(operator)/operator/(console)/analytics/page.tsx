import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { AnalyticsReport } from '@/components/operator/analytics-report';
import styles from '@/components/operator/console/console.module.css';
import { RangeForm } from '@/components/operator/range-form';
import { ReportNotice } from '@/components/operator/report-notice';
import { resolveRoute, type SearchRouteProps } from '@/components/page/route-page';
import { readReportRange } from '@/lib/analytics/report-range';
import { loadAnalyticsReport } from '@/lib/analytics/report-server';
import { routeMetadata } from '@/lib/metadata';
import { requireOperator } from '@/lib/operator/server';

// Decision 0022's analytics report, a section of the back office since decision 0042 (统计): rendered
// per request for an operator whose roles cover it (管理员, 财务, 内容编辑); the API decides again.

const NAME = 'operator-analytics';

export async function generateMetadata(props: SearchRouteProps): Promise<Metadata> {
  const route = await resolveRoute(NAME, props);
  return { ...(await routeMetadata(route.locale, NAME)), robots: { index: false, follow: false } };
}

/** The request's time: the default range ends today (Beijing). */
function requestTime(): number {
  return Date.now();
}

export default async function OperatorAnalyticsPage(props: SearchRouteProps) {
  const route = await resolveRoute(NAME, props);
  await requireOperator('analytics', '/operator/analytics');
  const nowMs = requestTime();
  const range = readReportRange(await props.searchParams, nowMs);
  const [load, t, tc] = await Promise.all([
    loadAnalyticsReport(range),
    getTranslations({ locale: route.locale, namespace: 'operator' }),
    getTranslations({ locale: 'zh-CN', namespace: 'console' }),
  ]);
  let body: ReactNode;
  switch (load.kind) {
    case 'unavailable':
      body = <ReportNotice testId="report-unavailable" text={t('unavailable')} />;
      break;
    case 'refused':
      body = <ReportNotice testId="report-unavailable" text={load.message || t('unavailable')} />;
      break;
    case 'ok':
      body = (
        <>
          <RangeForm locale={route.locale} path="/operator/analytics" range={range} nowMs={nowMs} />
          <AnalyticsReport locale={route.locale} report={load.report} />
        </>
      );
      break;
  }
  return (
    <>
      <h1 className={styles.pageTitle}>{tc('sections.analytics')}</h1>
      {body}
    </>
  );
}
