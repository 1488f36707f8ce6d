import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { ZOperatorUserDetail, ZOperatorUserPay } from '@xcad/protocol';
import { ReasonAction } from '@/components/operator/console/reason-action';
import styles from '@/components/operator/console/console.module.css';
import { resolveRoute, type RouteProps } from '@/components/page/route-page';
import Link from '@/components/ui/link';
import { routeMetadata } from '@/lib/metadata';
import { beijingTime, yuanOf } from '@/lib/operator/format';
import { bodyOf, operatorRead, requireOperator } from '@/lib/operator/server';

// Decision 0042: one user. Account facts and actions (disable/enable, end all sessions), memberships
// per product with the grant/extend/revoke form (the pay module's one grant path), their history,
// orders and invoices. Every change asks a reason and is audited by the API.

const NAME = 'operator-users-id';

export async function generateMetadata(props: RouteProps): Promise<Metadata> {
  const route = await resolveRoute(NAME, props);
  return { ...(await routeMetadata(route.locale, NAME, route.params)), robots: { index: false, follow: false } };
}

export default async function OperatorUserPage(props: RouteProps) {
  const route = await resolveRoute(NAME, props);
  const me = await requireOperator('users', `/operator/users/${route.params['id'] ?? ''}`);
  const id = route.params['id'] ?? '';
  const [detailLoad, payLoad, t] = await Promise.all([
    operatorRead(`/api/operator/users/${id}`, ZOperatorUserDetail),
    operatorRead(`/api/operator/users/${id}/pay`, ZOperatorUserPay),
    getTranslations({ locale: 'zh-CN', namespace: 'console' }),
  ]);
  if (detailLoad.kind === 'notFound') notFound();
  const user = bodyOf(detailLoad);
  const pay = bodyOf(payLoad);
  const productName = (productId: number) => pay.memberships.find((row) => row.productId === productId)?.productName ?? String(productId);
  const base = `/api/operator/users/${user.userId}`;
  return (
    <>
      <p>
        <Link href="/operator/users">{t('user.back')}</Link>
      </p>
      <h1 className={styles.pageTitle}>
        {t('user.title', { id: user.userId })} · {user.nickname}
      </h1>
      <div className={styles.grid2}>
        <section className={styles.panel} data-testid="user-profile">
          <h2 className={styles.panelTitle}>{t('user.profile')}</h2>
          <dl className={styles.facts}>
            <dt>{t('users.username')}</dt>
            <dd className={styles.mono}>{user.username}</dd>
            <dt>{t('users.mobile')}</dt>
            <dd>{user.mobile ?? t('common.none')}</dd>
            <dt>{t('users.email')}</dt>
            <dd>{user.email ?? t('common.none')}</dd>
            <dt>{t('users.status')}</dt>
            <dd>
              <span className={user.status === 'active' ? styles.tagOk : styles.tagBad} data-testid="user-status">
                {t(`users.${user.status}`)}
              </span>
            </dd>
            <dt>{t('user.password')}</dt>
            <dd>{user.hasPassword ? t('common.yes') : t('common.no')}</dd>
            <dt>{t('user.identities')}</dt>
            <dd>{user.identities.length > 0 ? user.identities.join(t('common.separator')) : t('common.none')}</dd>
            <dt>{t('user.liveSessions')}</dt>
            <dd data-testid="user-sessions">{user.liveSessions}</dd>
            <dt>{t('users.createdAt')}</dt>
            <dd>{beijingTime(user.createdAt)}</dd>
            <dt>{t('user.updatedAt')}</dt>
            <dd>{beijingTime(user.updatedAt)}</dd>
          </dl>
        </section>
        <section className={styles.panel}>
          <h2 className={styles.panelTitle}>{t('user.accountActions')}</h2>
          {user.status === 'active' ? (
            <ReasonAction path={`${base}/disable`} csrf={me.csrf} label={t('user.disable')} danger testId="user-disable" />
          ) : (
            <ReasonAction path={`${base}/enable`} csrf={me.csrf} label={t('user.enable')} testId="user-enable" />
          )}
          <br />
          <ReasonAction path={`${base}/end-sessions`} csrf={me.csrf} label={t('user.endSessions')} danger testId="user-end-sessions" />
        </section>
      </div>

      <section className={styles.panel}>
        <h2 className={styles.panelTitle}>{t('user.memberships')}</h2>
        <table className={styles.table} data-testid="user-memberships">
          <thead>
            <tr>
              <th>{t('user.product')}</th>
              <th>{t('user.expiry')}</th>
              <th>{t('user.state')}</th>
            </tr>
          </thead>
          <tbody>
            {pay.memberships.map((row) => (
              <tr key={row.productId} data-product={row.productId}>
                <td>
                  {row.productName} <span className={styles.muted}>({row.productId})</span>
                </td>
                <td>{row.expiry > 0 ? beijingTime(row.expiry) : t('common.none')}</td>
                <td>
                  {row.active ? (
                    <span className={styles.tagOk}>{t('user.memberActive')}</span>
                  ) : (
                    <span className={styles.tag}>{row.expiry > 0 ? t('user.memberExpired') : t('user.memberNone')}</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <h3 className={styles.panelTitle}>{t('user.change')}</h3>
        <ReasonAction path={`${base}/memberships`} csrf={me.csrf} label={t('common.confirm')} testId="membership-change">
          <label className={styles.field}>
            {t('user.product')}
            <select className={styles.select} name="productId">
              {pay.memberships.map((row) => (
                <option key={row.productId} value={row.productId}>
                  {row.productName}
                </option>
              ))}
            </select>
          </label>
          <label className={styles.field}>
            {t('users.actions')}
            <select className={styles.select} name="action">
              <option value="extend">{t('user.extend')}</option>
              <option value="revoke">{t('user.revoke')}</option>
            </select>
          </label>
          <label className={styles.field}>
            {t('user.days')}
            <input className={styles.input} style={{ minWidth: 90, width: 90 }} name="days" inputMode="numeric" defaultValue="30" />
          </label>
        </ReasonAction>
      </section>

      <section className={styles.panel}>
        <h2 className={styles.panelTitle}>{t('user.history')}</h2>
        {pay.history.length === 0 ? (
          <p className={styles.muted}>{t('common.empty')}</p>
        ) : (
          <table className={styles.table} data-testid="membership-history">
            <thead>
              <tr>
                <th>{t('user.historyAt')}</th>
                <th>{t('user.product')}</th>
                <th>{t('user.historyWhat')}</th>
                <th>{t('user.historyBy')}</th>
                <th>{t('user.historyReason')}</th>
              </tr>
            </thead>
            <tbody>
              {pay.history.map((entry, index) => (
                <tr key={`${entry.at}-${index}`}>
                  <td>{beijingTime(entry.at)}</td>
                  <td>{productName(entry.productId)}</td>
                  <td>
                    {t(`user.kinds.${entry.kind}`)}
                    {entry.expiry !== null
                      ? ` · ${t('user.expiry')} ${beijingTime(entry.expiry) || t('common.none')}`
                      : ` · ${entry.detail}`}
                  </td>
                  <td>{entry.by}</td>
                  <td>{entry.reason || t('common.none')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <div className={styles.grid2}>
        <section className={styles.panel}>
          <h2 className={styles.panelTitle}>{t('user.orders')}</h2>
          {pay.orders.length === 0 ? (
            <p className={styles.muted}>{t('common.empty')}</p>
          ) : (
            <table className={styles.table}>
              <thead>
                <tr>
                  <th>{t('user.orderno')}</th>
                  <th>{t('user.items')}</th>
                  <th>{t('user.amount')}</th>
                  <th>{t('user.orderState')}</th>
                  <th>{t('users.createdAt')}</th>
                </tr>
              </thead>
              <tbody>
                {pay.orders.map((order) => (
                  <tr key={order.orderno}>
                    <td className={styles.mono}>{order.orderno}</td>
                    <td>{order.items}</td>
                    <td>{yuanOf(order.amountFen)}</td>
                    <td>{t(`user.orderStates.${order.state === 'paid' || order.state === 'unpaid' ? order.state : 'closed'}`)}</td>
                    <td>{beijingTime(order.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <section className={styles.panel}>
          <h2 className={styles.panelTitle}>{t('user.invoices')}</h2>
          {pay.invoices.length === 0 ? (
            <p className={styles.muted}>{t('common.empty')}</p>
          ) : (
            <table className={styles.table}>
              <thead>
                <tr>
                  <th>{t('user.orderno')}</th>
                  <th>{t('user.invoiceTitle')}</th>
                  <th>{t('user.amount')}</th>
                  <th>{t('user.invoiceState')}</th>
                </tr>
              </thead>
              <tbody>
                {pay.invoices.map((invoice) => (
                  <tr key={invoice.orderno}>
                    <td className={styles.mono}>{invoice.orderno}</td>
                    <td>{invoice.title}</td>
                    <td>{yuanOf(invoice.amountFen)}</td>
                    <td>{t(`user.invoiceStates.${invoice.state === 'issued' ? 'issued' : 'submitted'}`)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </div>
    </>
  );
}
