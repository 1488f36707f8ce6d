import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { LogoMark } from '@/components/site/logo';
import { LoginPage } from '@/components/auth/login/login-page';
import { resolveRoute } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';
import { routeMetadata } from '@/lib/metadata';
import styles from './login-phone.module.css';

// spec §2 /loginPhone: the mobile header's login icon leads here (the modal's flows as a page).

export async function generateMetadata(props: RouteProps): Promise<Metadata> {
  const route = await resolveRoute('loginPhone', props);
  return routeMetadata(route.locale, 'loginPhone', route.params, route.values);
}

export default async function LoginPhonePage(props: RouteProps) {
  const route = await resolveRoute('loginPhone', props);
  const t = await getTranslations({ locale: route.locale, namespace: 'login.page' });
  return (
    <div className={styles.page}>
      <div className={styles.inner}>
        <header className={styles.head}>
          <LogoMark size={44} className={styles.logo} />
          <h1 className={styles.title}>{t('title')}</h1>
          <p className={styles.subtitle}>{t('subtitle')}</p>
        </header>
        <LoginPage />
      </div>
    </div>
  );
}
