import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { AnalyticsReport } from '@/components/operator/analytics-report';
import { RangeForm } from '@/components/operator/range-form';
import { ReportNotice } from '@/components/operator/report-notice';
import { PageFrame } from '@/components/page/page-frame';
import { resolveRoute, type RouteProps } from '@/components/page/route-page';
import { SigninGate } from '@/components/personal/signin-gate';
import { readReportRange } from '@/lib/analytics/report-range';
import { loadAnalyticsReport } from '@/lib/analytics/report-server';
import { localizePath } from '@/lib/i18n/locales';
import { routeMetadata } from '@/lib/metadata';
import { pathOf } from '@/lib/routes';

// Decision 0022: the operator's analytics report. Rendered per request from the session cookie: the
// API answers the report only to an operator account (npm run operator:create); a visitor is
// asked to sign in, any other account is told it has no access.

const NAME = 'operator-analytics';

interface OperatorPageProps extends RouteProps {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export const dynamic = 'force-dynamic';

export async function generateMetadata(props: RouteProps): Promise<Metadata> {
  const route = await resolveRoute(NAME, props);
  return { ...(await routeMetadata(route.locale, NAME)), robots: { index: false, follow: false } };
}

/** The request's time: the default range ends today (Beijing). */
function requestTime(): number {
  return Date.now();
}

export default async function OperatorAnalyticsPage(props: OperatorPageProps) {
  const route = await resolveRoute(NAME, props);
  const nowMs = requestTime();
  const range = readReportRange(await props.searchParams, nowMs);
  const [load, t] = await Promise.all([loadAnalyticsReport(range), getTranslations({ locale: route.locale, namespace: 'operator' })]);
  let body: ReactNode;
  switch (load.kind) {
    case 'signedOut':
      body = <SigninGate />;
      break;
    case 'forbidden':
      body = <ReportNotice testId="report-forbidden" title={t('forbidden.title')} text={t('forbidden.text')} />;
      break;
    case 'unavailable':
      body = <ReportNotice testId="report-unavailable" text={t('unavailable')} />;
      break;
    case 'refused':
      body = <ReportNotice testId="report-unavailable" text={load.message || t('unavailable')} />;
      break;
    case 'ok':
      body = (
        <>
          <RangeForm locale={route.locale} path={localizePath(pathOf(NAME), route.locale)} range={range} nowMs={nowMs} />
          <AnalyticsReport locale={route.locale} report={load.report} />
        </>
      );
      break;
  }
  return (
    <PageFrame locale={route.locale} name={NAME} showRelated={false}>
      {body}
    </PageFrame>
  );
}
