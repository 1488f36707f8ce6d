import Link from '@/components/ui/link';
import { getFormatter, getNow, getTranslations } from 'next-intl/server';
import { CrownIcon } from '@/components/ui/icons';
import { displayNameOf, maskMobile, overallLevelOf, productMembershipRows, signInMethodsOf } from '@/lib/auth/account-view';
import type { ProductMembershipRow } from '@/lib/auth/account-view';
import { localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import { purchaseEffectOf } from '@/lib/orders/open-vip';
import type { PersonalContentProps } from './personal-page';
import styles from './personal-overview.module.css';
import { UserAvatar } from './user-avatar';

const BASE_PATH = '/personal-base.html';
const OPEN_VIP_PATH = '/personal-openvip.html';

/** /personal.html (spec §2): the account, and the membership of each product of spec §6. */
export async function PersonalOverview({ locale, profile }: PersonalContentProps) {
  const [t, format, now] = await Promise.all([
    getTranslations({ locale, namespace: 'account.overview' }),
    getFormatter({ locale }),
    getNow({ locale }),
  ]);
  const rows = productMembershipRows(profile, Math.floor(now.getTime() / 1000));
  const overall = overallLevelOf(rows);
  const name = displayNameOf(profile);
  const date = (seconds: number) => format.dateTime(new Date(seconds * 1000), { year: 'numeric', month: '2-digit', day: '2-digit' });
  const methods = signInMethodsOf(profile);

  return (
    <div className={styles.overview} data-testid="personal-overview">
      <section className={styles.profile} aria-labelledby="personal-profile-title">
        <UserAvatar src={profile.head_portrait} name={name} size={72} className={styles.avatar} alt={t('avatarAlt', { name })} />
        <div className={styles.identity}>
          <h2 id="personal-profile-title" className={styles.nickname}>
            <span data-testid="personal-nickname">{name}</span>
            <span className={styles.level} data-level={overall}>
              {overall === 'premium' && <CrownIcon size={12} />}
              {t(`levels.${overall}`)}
            </span>
          </h2>
          <p className={styles.account}>{t('usernameLine', { username: profile.username, uid: profile.uid })}</p>
        </div>
        <Link className={styles.edit} href={localizePath(BASE_PATH, locale)}>
          {t('edit')}
        </Link>
      </section>

      <dl className={styles.details}>
        <div className={styles.detail}>
          <dt>{t('mobile')}</dt>
          <dd data-testid="personal-mobile">
            {profile.bindmobile ? maskMobile(profile.bindmobile) : t('mobileNone')}
            {!profile.bindmobile && (
              <Link className={styles.inlineLink} href={localizePath(BASE_PATH, locale)}>
                {t('bindNow')}
              </Link>
            )}
          </dd>
        </div>
        <div className={styles.detail}>
          <dt>{t('methods')}</dt>
          <dd data-testid="personal-methods">{methods.map((method) => t(`methodNames.${method}`)).join(t('listSeparator'))}</dd>
        </div>
        <div className={styles.detail}>
          <dt>{t('password')}</dt>
          <dd>
            {profile.ispwd === 1 ? t('passwordSet') : t('passwordNone')}
            <Link className={styles.inlineLink} href={localizePath(BASE_PATH, locale)}>
              {profile.ispwd === 1 ? t('passwordChange') : t('passwordSetNow')}
            </Link>
          </dd>
        </div>
        <div className={styles.detail}>
          <dt>{t('regtime')}</dt>
          <dd>{date(profile.regtime)}</dd>
        </div>
      </dl>

      <section aria-labelledby="personal-membership-title">
        <h2 id="personal-membership-title" className={styles.sectionTitle}>
          {t('membershipTitle')}
        </h2>
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">{t('product')}</th>
              <th scope="col">{t('status')}</th>
              <th scope="col">{t('expiry')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('action')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key} data-testid={`personal-membership-${row.key}`} data-level={row.level}>
                <th scope="row" className={styles.product}>
                  {t(`products.${row.key}`)}
                </th>
                <td>
                  <span className={styles.level} data-level={row.level}>
                    {row.level === 'premium' && <CrownIcon size={12} />}
                    {t(`levels.${row.level}`)}
                  </span>
                </td>
                <td className={styles.expiry}>
                  {row.expireTime === null
                    ? t('noExpiry')
                    : row.isLifelong
                      ? t('lifelong')
                      : t(row.level === 'premium' ? 'expiresOn' : 'expiredOn', { date: date(row.expireTime) })}
                </td>
                <td className={styles.actionCell}>
                  <MembershipAction row={row} locale={locale} label={t} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

/**
 * What a product's row offers, by what buying would do to its membership: 开通会员 on the product's
 * buy page for a non-member; 续费 (a member) and 重新开通 (lapsed) on the open-membership page for
 * that product, which says how the new time adds up; nothing to buy for a lifelong member.
 */
function MembershipAction({
  row,
  locale,
  label,
}: {
  readonly row: ProductMembershipRow;
  readonly locale: Locale;
  readonly label: (key: 'open' | 'renew' | 'restart' | 'lifelongAction') => string;
}) {
  const effect = purchaseEffectOf(row);
  if (effect === 'lifelong') {
    return (
      <span className={styles.lifelong} data-testid="membership-action" data-effect={effect}>
        {label('lifelongAction')}
      </span>
    );
  }
  const href = effect === 'open' ? row.buyPath : `${OPEN_VIP_PATH}?productid=${row.productId}`;
  return (
    <Link className={styles.open} href={localizePath(href, locale)} data-testid="membership-action" data-effect={effect}>
      {label(effect)}
    </Link>
  );
}
