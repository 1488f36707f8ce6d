import { formatYuan, TASK_TYPES, type TAnalyticsReport, type TTaskType } from '@xcad/protocol';
import { getFormatter, getTranslations } from 'next-intl/server';
import { cardClass } from '@/components/ui/card';
import { percent } from '@/lib/analytics/chart';
import type { Locale } from '@/lib/i18n/locales';
import { DailyChart } from './daily-chart';
import styles from './operator.module.css';

// The operator report (decision 0022), from GET /api/analytics/report: totals, daily visitors and
// page views (chart and table), top pages, sign-ins by method, conversion tasks by tool and the
// purchase funnel with revenue. Server-rendered; every figure carries a test id for the e2e test.

function isTaskType(value: string): value is TTaskType {
  return (TASK_TYPES as readonly string[]).includes(value);
}

function RateBar({ rate, label }: { readonly rate: number; readonly label: string }) {
  return (
    <span className={styles.rate}>
      <span className={styles.rateTrack} aria-hidden="true">
        <span className={styles.rateFill} style={{ width: `${Math.round(Math.min(1, Math.max(0, rate)) * 100)}%` }} />
      </span>
      <span>{label}</span>
    </span>
  );
}

export async function AnalyticsReport({ locale, report }: { readonly locale: Locale; readonly report: TAnalyticsReport }) {
  const [t, tools, format] = await Promise.all([
    getTranslations({ locale, namespace: 'operator' }),
    getTranslations({ locale, namespace: 'tools' }),
    getFormatter({ locale }),
  ]);
  const count = (value: number) => format.number(value);
  const { totals, funnel } = report;
  const firstStep = funnel.steps[0]?.devices ?? 0;
  const toolName = (tool: string) => (isTaskType(tool) ? tools(`tool.${tool}.name`) : tool);
  const seconds = (ms: number) =>
    ms > 0 ? t('tasks.seconds', { seconds: format.number(ms / 1000, { maximumFractionDigits: 1 }) }) : t('tasks.none');
  const cards = [
    { key: 'visitors', value: count(totals.visitors) },
    { key: 'views', value: count(totals.views) },
    { key: 'events', value: count(totals.events) },
    { key: 'orders', value: count(funnel.orders) },
    { key: 'revenue', value: formatYuan(funnel.revenue) },
  ] as const;

  return (
    <div className={styles.report} data-testid="analytics-report" data-from={report.from} data-to={report.to}>
      <section aria-labelledby="report-totals">
        <h2 id="report-totals" className="visually-hidden">
          {t('totals.label')}
        </h2>
        <dl className={styles.cards}>
          {cards.map((card) => (
            <div key={card.key} className={cardClass(styles.stat)}>
              <dt>{t(`totals.${card.key}`)}</dt>
              <dd data-testid={`total-${card.key}`}>{card.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section className={styles.panel} aria-labelledby="report-daily">
        <h2 id="report-daily" className={styles.panelTitle}>
          {t('daily.title')}
        </h2>
        <DailyChart
          days={report.days}
          labels={{
            title: t('daily.title'),
            description: t('daily.chartDesc', {
              from: report.from,
              to: report.to,
              visitors: count(totals.visitors),
              views: count(totals.views),
            }),
            views: t('daily.views'),
            visitors: t('daily.visitors'),
            count,
          }}
        />
        <details className={styles.details} open={report.days.length <= 14}>
          <summary>{t('daily.table')}</summary>
          <div className={styles.tableScroll}>
            <table className={styles.table} data-testid="daily-table">
              <thead>
                <tr>
                  <th scope="col">{t('daily.day')}</th>
                  <th scope="col" className={styles.num}>
                    {t('daily.visitors')}
                  </th>
                  <th scope="col" className={styles.num}>
                    {t('daily.views')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {report.days.map((day) => (
                  <tr key={day.day} data-testid="daily-row" data-day={day.day}>
                    <th scope="row">{day.day}</th>
                    <td className={styles.num} data-testid="daily-visitors">
                      {count(day.visitors)}
                    </td>
                    <td className={styles.num} data-testid="daily-views">
                      {count(day.views)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      </section>

      <div className={styles.columns}>
        <section className={styles.panel} aria-labelledby="report-logins">
          <h2 id="report-logins" className={styles.panelTitle}>
            {t('logins.title')}
          </h2>
          {report.logins.length === 0 ? (
            <p className={styles.empty}>{t('logins.empty')}</p>
          ) : (
            <div className={styles.tableScroll}>
              <table className={styles.table} data-testid="login-table">
                <thead>
                  <tr>
                    <th scope="col">{t('logins.method')}</th>
                    <th scope="col" className={styles.num}>
                      {t('logins.attempts')}
                    </th>
                    <th scope="col" className={styles.num}>
                      {t('logins.successes')}
                    </th>
                    <th scope="col">{t('logins.rate')}</th>
                  </tr>
                </thead>
                <tbody>
                  {report.logins.map((row) => (
                    <tr key={row.method} data-testid="login-row" data-method={row.method}>
                      <th scope="row">{t(`logins.methods.${row.method}`)}</th>
                      <td className={styles.num} data-testid="login-attempts">
                        {count(row.attempts)}
                      </td>
                      <td className={styles.num} data-testid="login-successes">
                        {count(row.successes)}
                      </td>
                      <td data-testid="login-rate">
                        <RateBar rate={row.rate} label={percent(row.successes, row.attempts)} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>

        <section className={styles.panel} aria-labelledby="report-tasks">
          <h2 id="report-tasks" className={styles.panelTitle}>
            {t('tasks.title')}
          </h2>
          {report.tasks.length === 0 ? (
            <p className={styles.empty}>{t('tasks.empty')}</p>
          ) : (
            <>
              <div className={styles.tableScroll}>
                <table className={styles.table} data-testid="task-table">
                  <thead>
                    <tr>
                      <th scope="col">{t('tasks.tool')}</th>
                      <th scope="col" className={styles.num}>
                        {t('tasks.tasks')}
                      </th>
                      <th scope="col" className={styles.num}>
                        {t('tasks.successes')}
                      </th>
                      <th scope="col">{t('tasks.rate')}</th>
                      <th scope="col" className={styles.num}>
                        {t('tasks.median')}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {report.tasks.map((row) => (
                      <tr key={row.tool} data-testid="task-row" data-tool={row.tool}>
                        <th scope="row">{toolName(row.tool)}</th>
                        <td className={styles.num} data-testid="task-count">
                          {count(row.tasks)}
                        </td>
                        <td className={styles.num} data-testid="task-successes">
                          {count(row.successes)}
                        </td>
                        <td data-testid="task-rate">
                          <RateBar rate={row.rate} label={percent(row.successes, row.tasks)} />
                        </td>
                        <td className={styles.num} data-testid="task-median">
                          {seconds(row.medianMs)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <p className={styles.note}>{t('tasks.medianNote')}</p>
            </>
          )}
        </section>
      </div>

      <section className={styles.panel} aria-labelledby="report-funnel">
        <h2 id="report-funnel" className={styles.panelTitle}>
          {t('funnel.title')}
        </h2>
        <p className={styles.note}>{t('funnel.desc')}</p>
        <ol className={styles.funnel} data-testid="funnel">
          {funnel.steps.map((step) => {
            const share = firstStep > 0 ? step.devices / firstStep : 0;
            return (
              <li key={step.step} className={styles.funnelStep} data-testid="funnel-step" data-step={step.step}>
                <span className={styles.funnelName}>{t(`funnel.steps.${step.step}`)}</span>
                <span className={styles.funnelTrack} aria-hidden="true">
                  <span
                    className={styles.funnelFill}
                    style={{ width: `${Math.max(step.devices > 0 ? 1 : 0, Math.round(share * 100))}%` }}
                  />
                </span>
                <span className={styles.funnelFigure}>
                  <span data-testid="funnel-devices" data-count={step.devices}>
                    {t('funnel.devices', { count: count(step.devices) })}
                  </span>
                  <span className={styles.funnelShare}>{percent(step.devices, firstStep)}</span>
                </span>
              </li>
            );
          })}
        </ol>
        <dl className={styles.funnelTotals}>
          <div>
            <dt>{t('funnel.orders')}</dt>
            <dd data-testid="funnel-orders">{count(funnel.orders)}</dd>
          </div>
          <div>
            <dt>{t('funnel.revenue')}</dt>
            <dd data-testid="funnel-revenue">{formatYuan(funnel.revenue)}</dd>
          </div>
        </dl>
      </section>

      <section className={styles.panel} aria-labelledby="report-pages">
        <h2 id="report-pages" className={styles.panelTitle}>
          {t('pages.title')}
        </h2>
        {report.topPages.length === 0 ? (
          <p className={styles.empty}>{t('pages.empty')}</p>
        ) : (
          <div className={styles.tableScroll}>
            <table className={styles.table} data-testid="page-table">
              <thead>
                <tr>
                  <th scope="col">{t('pages.page')}</th>
                  <th scope="col" className={styles.num}>
                    {t('pages.views')}
                  </th>
                  <th scope="col" className={styles.num}>
                    {t('pages.visitors')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {report.topPages.map((row) => (
                  <tr key={row.page} data-testid="page-row" data-page={row.page}>
                    <th scope="row" className={styles.path}>
                      {row.page}
                    </th>
                    <td className={styles.num} data-testid="page-views">
                      {count(row.views)}
                    </td>
                    <td className={styles.num} data-testid="page-visitors">
                      {count(row.visitors)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
