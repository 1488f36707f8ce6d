import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { AUDIT_ACTIONS, ZAuditPage } from '@xcad/protocol';
import { Pager } from '@/components/operator/console/pager';
import styles from '@/components/operator/console/console.module.css';
import { resolveRoute, type SearchRouteProps } from '@/components/page/route-page';
import Link from '@/components/ui/link';
import { routeMetadata } from '@/lib/metadata';
import { beijingTime, firstOf } from '@/lib/operator/format';
import { bodyOf, operatorRead, requireOperator } from '@/lib/operator/server';

// Decision 0042: 审计日志, 管理员 only. Read-only (nothing edits the log), newest first, filtered by
// operator, action, target and Beijing dates; the filters live in the URL.

const NAME = 'operator-audit';
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export async function generateMetadata(props: SearchRouteProps): Promise<Metadata> {
  const route = await resolveRoute(NAME, props);
  return { ...(await routeMetadata(route.locale, NAME)), robots: { index: false, follow: false } };
}

function shown(value: unknown): string {
  return value === null || value === undefined ? '' : JSON.stringify(value);
}

export default async function OperatorAuditPage(props: SearchRouteProps) {
  await resolveRoute(NAME, props);
  await requireOperator('audit', '/operator/audit');
  const search = await props.searchParams;
  const filters = {
    operator: /^\d{1,10}$/.test(firstOf(search['operator'])) ? firstOf(search['operator']) : '',
    action: firstOf(search['action']) in AUDIT_ACTIONS ? firstOf(search['action']) : '',
    targetId: firstOf(search['targetId']).slice(0, 64),
    from: DAY.test(firstOf(search['from'])) ? firstOf(search['from']) : '',
    to: DAY.test(firstOf(search['to'])) ? firstOf(search['to']) : '',
  };
  const page = /^\d{1,6}$/.test(firstOf(search['page'])) && Number(firstOf(search['page'])) > 0 ? firstOf(search['page']) : '1';
  const params = new URLSearchParams({ page });
  for (const [key, value] of Object.entries(filters)) if (value !== '') params.set(key, value);
  const load = await operatorRead(`/api/operator/audit?${params.toString()}`, ZAuditPage);
  const t = await getTranslations({ locale: 'zh-CN', namespace: 'console' });
  const result = load.kind === 'failed' ? { total: 0, page: 1, pageSize: 20, entries: [] } : bodyOf(load);
  return (
    <>
      <h1 className={styles.pageTitle}>{t('audit.title')}</h1>
      <section className={styles.panel}>
        <form className={styles.filters} method="get" action="/operator/audit" data-testid="audit-filters">
          <label className={styles.field}>
            {t('audit.filterOperator')}
            <input className={styles.input} style={{ minWidth: 120, width: 120 }} name="operator" defaultValue={filters.operator} />
          </label>
          <label className={styles.field}>
            {t('audit.filterAction')}
            <select className={styles.select} name="action" defaultValue={filters.action}>
              <option value="">{t('audit.allActions')}</option>
              {Object.keys(AUDIT_ACTIONS).map((action) => (
                <option key={action} value={action}>
                  {t(`audit.actions.${action.replace('.', '_')}`)}
                </option>
              ))}
            </select>
          </label>
          <label className={styles.field}>
            {t('audit.filterTarget')}
            <input className={styles.input} style={{ minWidth: 120, width: 120 }} name="targetId" defaultValue={filters.targetId} />
          </label>
          <label className={styles.field}>
            {t('audit.from')}
            <input className={styles.input} style={{ minWidth: 150 }} type="date" name="from" defaultValue={filters.from} />
          </label>
          <label className={styles.field}>
            {t('audit.to')}
            <input className={styles.input} style={{ minWidth: 150 }} type="date" name="to" defaultValue={filters.to} />
          </label>
          <button type="submit" className={styles.button}>
            {t('common.search')}
          </button>
          <Link href="/operator/audit" className={styles.buttonGhost}>
            {t('common.reset')}
          </Link>
        </form>
        {load.kind === 'failed' && load.message !== '' ? <p className={styles.error}>{load.message}</p> : null}
        <table className={styles.table} data-testid="audit-table">
          <thead>
            <tr>
              <th>{t('audit.at')}</th>
              <th>{t('audit.operator')}</th>
              <th>{t('audit.action')}</th>
              <th>{t('audit.target')}</th>
              <th>{t('audit.before')}</th>
              <th>{t('audit.after')}</th>
              <th>{t('audit.reason')}</th>
              <th>{t('audit.ip')}</th>
            </tr>
          </thead>
          <tbody>
            {result.entries.map((entry) => (
              <tr key={entry.id}>
                <td style={{ whiteSpace: 'nowrap' }}>{beijingTime(entry.at)}</td>
                <td>
                  {entry.operatorName} <span className={styles.muted}>#{entry.operatorId}</span>
                </td>
                <td>{entry.action in AUDIT_ACTIONS ? t(`audit.actions.${entry.action.replace('.', '_')}`) : entry.action}</td>
                <td className={styles.mono}>
                  {entry.targetType} {entry.targetId}
                </td>
                <td className={styles.mono}>{shown(entry.before)}</td>
                <td className={styles.mono}>{shown(entry.after)}</td>
                <td>{entry.reason}</td>
                <td className={styles.mono}>{entry.ip}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {result.entries.length === 0 ? <p className={styles.muted}>{t('common.empty')}</p> : null}
        <Pager path="/operator/audit" query={filters} page={result.page} pageSize={result.pageSize} total={result.total} />
      </section>
    </>
  );
}
