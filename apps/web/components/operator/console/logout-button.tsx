'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { operatorPost } from '@/lib/operator/client';
import styles from './console.module.css';

/** Ends the console session (audited by the API) and returns to the sign-in page. */
export function LogoutButton({ csrf }: { csrf: string }) {
  const t = useTranslations('console.shell');
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className={styles.buttonGhost}
      disabled={busy}
      onClick={() => {
        setBusy(true);
        void operatorPost('/api/operator/logout', csrf).finally(() => router.replace('/operator/login'));
      }}
    >
      {t('logout')}
    </button>
  );
}
