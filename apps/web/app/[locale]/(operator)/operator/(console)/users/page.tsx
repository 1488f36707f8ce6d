import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { ZUserSearchPage } from '@xcad/protocol';
import { Pager } from '@/components/operator/console/pager';
import styles from '@/components/operator/console/console.module.css';
import { resolveRoute, type SearchRouteProps } from '@/components/page/route-page';
import Link from '@/components/ui/link';
import { routeMetadata } from '@/lib/metadata';
import { beijingTime, firstOf } from '@/lib/operator/format';
import { bodyOf, operatorRead, requireOperator } from '@/lib/operator/server';

// Decision 0042: 用户. The search runs on the server, a page at a time; the filters live in the URL.

const NAME = 'operator-users';

export async function generateMetadata(props: SearchRouteProps): Promise<Metadata> {
  const route = await resolveRoute(NAME, props);
  return { ...(await routeMetadata(route.locale, NAME)), robots: { index: false, follow: false } };
}

export default async function OperatorUsersPage(props: SearchRouteProps) {
  await resolveRoute(NAME, props);
  await requireOperator('users', '/operator/users');
  const search = await props.searchParams;
  const query = { q: firstOf(search['q']).trim().slice(0, 64), status: firstOf(search['status']), page: firstOf(search['page']) };
  const status = query.status === 'active' || query.status === 'disabled' ? query.status : '';
  const page = /^\d{1,6}$/.test(query.page) && Number(query.page) > 0 ? query.page : '1';
  const params = new URLSearchParams({ q: query.q, status, page });
  const result = bodyOf(await operatorRead(`/api/operator/users?${params.toString()}`, ZUserSearchPage));
  const t = await getTranslations({ locale: 'zh-CN', namespace: 'console' });
  return (
    <>
      <h1 className={styles.pageTitle}>{t('users.title')}</h1>
      <section className={styles.panel}>
        <form className={styles.filters} method="get" action="/operator/users" data-testid="user-search">
          <label className={styles.field}>
            {t('users.q')}
            <input className={styles.input} name="q" defaultValue={query.q} maxLength={64} />
          </label>
          <label className={styles.field}>
            {t('users.status')}
            <select className={styles.select} name="status" defaultValue={status}>
              <option value="">{t('users.statusAll')}</option>
              <option value="active">{t('users.active')}</option>
              <option value="disabled">{t('users.disabled')}</option>
            </select>
          </label>
          <button type="submit" className={styles.button}>
            {t('common.search')}
          </button>
          <Link href="/operator/users" className={styles.buttonGhost}>
            {t('common.reset')}
          </Link>
        </form>
        <table className={styles.table} data-testid="user-table">
          <thead>
            <tr>
              <th>{t('users.id')}</th>
              <th>{t('users.nickname')}</th>
              <th>{t('users.mobile')}</th>
              <th>{t('users.email')}</th>
              <th>{t('users.username')}</th>
              <th>{t('users.status')}</th>
              <th>{t('users.createdAt')}</th>
              <th>{t('users.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {result.users.map((user) => (
              <tr key={user.userId}>
                <td>{user.userId}</td>
                <td>{user.nickname}</td>
                <td>{user.mobile ?? t('common.none')}</td>
                <td>{user.email ?? t('common.none')}</td>
                <td className={styles.mono}>{user.username}</td>
                <td>
                  <span className={user.status === 'active' ? styles.tagOk : styles.tagBad}>{t(`users.${user.status}`)}</span>
                </td>
                <td>{beijingTime(user.createdAt)}</td>
                <td>
                  <Link href={`/operator/users/${user.userId}`}>{t('common.view')}</Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {result.users.length === 0 ? <p className={styles.muted}>{t('common.empty')}</p> : null}
        <Pager path="/operator/users" query={{ q: query.q, status }} page={result.page} pageSize={result.pageSize} total={result.total} />
      </section>
    </>
  );
}
