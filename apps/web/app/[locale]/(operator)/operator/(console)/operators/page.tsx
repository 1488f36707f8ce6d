import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { OPERATOR_ROLES, ZOperatorRow } from '@xcad/protocol';
import { z } from 'zod';
import { ReasonAction } from '@/components/operator/console/reason-action';
import styles from '@/components/operator/console/console.module.css';
import { resolveRoute, type RouteProps } from '@/components/page/route-page';
import { routeMetadata } from '@/lib/metadata';
import { bodyOf, operatorRead, requireOperator } from '@/lib/operator/server';

// Decision 0042: 操作员, 管理员 only: who holds which roles; grant a role to a registered phone, remove
// one (the last 管理员 keeps theirs). Every change asks a reason and is audited.

const NAME = 'operator-operators';
const ZOperators = z.object({ operators: z.array(ZOperatorRow) });

export async function generateMetadata(props: RouteProps): Promise<Metadata> {
  const route = await resolveRoute(NAME, props);
  return { ...(await routeMetadata(route.locale, NAME)), robots: { index: false, follow: false } };
}

export default async function OperatorOperatorsPage(props: RouteProps) {
  await resolveRoute(NAME, props);
  const me = await requireOperator('operators', '/operator/operators');
  const [{ operators }, t] = await Promise.all([
    operatorRead('/api/operator/operators', ZOperators).then(bodyOf),
    getTranslations({ locale: 'zh-CN', namespace: 'console' }),
  ]);
  return (
    <>
      <h1 className={styles.pageTitle}>{t('operators.title')}</h1>
      <section className={styles.panel}>
        <h2 className={styles.panelTitle}>{t('operators.grant')}</h2>
        <p className={styles.muted}>{t('operators.grantIntro')}</p>
        <ReasonAction path="/api/operator/operators/grant" csrf={me.csrf} label={t('operators.grant')} testId="operator-grant">
          <label className={styles.field}>
            {t('operators.phone')}
            <input className={styles.input} name="phone" inputMode="numeric" />
          </label>
          <label className={styles.field}>
            {t('operators.role')}
            <select className={styles.select} name="role">
              {OPERATOR_ROLES.map((role) => (
                <option key={role} value={role}>
                  {t(`roles.${role}`)}
                </option>
              ))}
            </select>
          </label>
        </ReasonAction>
      </section>
      <section className={styles.panel}>
        <table className={styles.table} data-testid="operator-table">
          <thead>
            <tr>
              <th>{t('users.id')}</th>
              <th>{t('operators.user')}</th>
              <th>{t('operators.status')}</th>
              <th>{t('operators.roles')}</th>
            </tr>
          </thead>
          <tbody>
            {operators.map((operator) => (
              <tr key={operator.userId}>
                <td>{operator.userId}</td>
                <td>
                  {operator.nickname} <span className={styles.muted}>{operator.maskedPhone}</span>
                </td>
                <td>
                  <span className={operator.status === 'active' ? styles.tagOk : styles.tagBad}>{t(`users.${operator.status}`)}</span>
                </td>
                <td>
                  {operator.roles.map((role) => (
                    <div key={role} style={{ marginBottom: 6 }}>
                      <span className={styles.tag}>{t(`roles.${role}`)}</span>
                      <ReasonAction
                        path="/api/operator/operators/remove"
                        csrf={me.csrf}
                        label={t('operators.remove')}
                        fields={{ userId: operator.userId, role }}
                        danger
                      />
                    </div>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}
