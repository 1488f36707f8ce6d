import { getTranslations } from 'next-intl/server';
import Link from '@/components/ui/link';
import styles from '@/components/operator/console/console.module.css';

// Decision 0042: a console page the operator's roles do not cover answers 403 with this page.
export default async function ConsoleForbidden() {
  const t = await getTranslations({ locale: 'zh-CN', namespace: 'console.forbidden' });
  return (
    <div className={`${styles.panel} ${styles.notice}`} data-testid="console-forbidden">
      <h1 className={styles.pageTitle}>{t('title')}</h1>
      <p>{t('text')}</p>
      <Link href="/operator" className={styles.buttonGhost}>
        {t('back')}
      </Link>
    </div>
  );
}
