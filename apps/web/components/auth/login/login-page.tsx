'use client';

import { useRouter } from 'next/navigation';
import { useCallback } from 'react';
import { useSiteLocale } from '@/components/site/use-site-locale';
import { safeRedirectPath } from '@/lib/auth/login-flow';
import styles from './login.module.css';
import { LoginFlow } from './login-views';

// spec §2 /loginPhone: the phone login of the mobile layout, a page rather than a modal, without
// the WeChat QR (a phone cannot scan its own screen). After a login it goes to `?redirect=`.

export function LoginPage() {
  const router = useRouter();
  const { href } = useSiteLocale();
  const onFinished = useCallback(() => {
    const redirect = new URLSearchParams(window.location.search).get('redirect');
    const target = safeRedirectPath(redirect);
    router.replace(target === '/' ? href('/') : target);
  }, [href, router]);

  return (
    <LoginFlow
      variant="page"
      onFinished={onFinished}
      frame={(view, _titleId, content) => (
        <div className={styles.pageCard} data-testid="login-page" data-view={view} data-track-module="login">
          {content}
        </div>
      )}
    />
  );
}
