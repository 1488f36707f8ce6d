'use client';

import Link from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { MouseEvent } from 'react';
import { useLoginModal } from '@/components/auth/login-modal-provider';
import { useSession } from '@/components/auth/session-provider';
import { DownloadIcon } from '@/components/ui/icons';
import { track } from '@/lib/analytics/browser';
import { downloadEvent } from '@/lib/analytics/events';
import { askDrawingAccess } from '@/lib/drawings/drawing-requests';
import styles from './drawings.module.css';

// The download of a drawing (decision 0012). A free drawing is a plain link to the file. A member
// drawing asks the file URL itself (HEAD, with the session cookie) whether this visitor may have
// it, so a stale local membership never decides: 200 starts the download, 401 opens the login
// modal, 403 shows the prompt to buy the drawing library membership (product 203).

type Prompt = 'none' | 'signIn' | 'buy' | 'failed';

export interface DownloadPanelProps {
  readonly fileUrl: string;
  readonly fileName: string;
  readonly format: string;
  readonly isMemberOnly: boolean;
  /** Localised path of /buy/cadtuku.html. */
  readonly buyHref: string;
}

export function DownloadPanel({ fileUrl, fileName, format, isMemberOnly, buyHref }: DownloadPanelProps) {
  const t = useTranslations('drawings');
  const { status } = useSession();
  const loginModal = useLoginModal();
  const [prompt, setPrompt] = useState<Prompt>('none');
  const [isChecking, setIsChecking] = useState(false);

  const onMemberClick = async (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    if (isChecking) return;
    setIsChecking(true);
    setPrompt('none');
    const report = (result: 'success' | 'fail', reason?: string) =>
      track(downloadEvent({ name: fileName, actionName: 'drawing', result, ...(reason ? { reason } : {}) }));
    try {
      const status = await askDrawingAccess(fileUrl);
      if (status >= 200 && status < 300) {
        report('success');
        window.location.assign(fileUrl);
      } else if (status === 401) {
        report('fail', 'sign-in required');
        setPrompt('signIn');
        loginModal.open();
      } else if (status === 403) {
        report('fail', 'membership required');
        setPrompt('buy');
      } else {
        report('fail', `HTTP ${status}`);
        setPrompt('failed');
      }
    } catch {
      report('fail', 'network');
      setPrompt('failed');
    } finally {
      setIsChecking(false);
    }
  };

  const label = !isMemberOnly
    ? t('downloadFree', { format })
    : status === 'signedOut'
      ? t('downloadSignIn')
      : t('downloadMember', { format });
  return (
    <div className={styles.download} data-testid="drawing-download-panel">
      <a
        className={styles.downloadButton}
        href={fileUrl}
        download={isMemberOnly ? undefined : fileName}
        data-access={isMemberOnly ? 'member' : 'free'}
        aria-busy={isChecking ? 'true' : undefined}
        onClick={
          isMemberOnly
            ? (event) => void onMemberClick(event)
            : () => track(downloadEvent({ name: fileName, actionName: 'drawing', result: 'success' }))
        }
        data-testid="drawing-download"
        rel="nofollow"
      >
        <DownloadIcon size={20} aria-hidden="true" />
        {isChecking ? t('downloadChecking') : label}
      </a>
      <div aria-live="polite">
        {prompt === 'signIn' && (
          <div className={`${styles.prompt} ${styles.promptSignIn}`} data-testid="drawing-signin-prompt">
            <p>{t('signInPrompt')}</p>
            <button type="button" className={styles.promptAction} onClick={() => loginModal.open()}>
              {t('signInAction')}
            </button>
          </div>
        )}
        {prompt === 'buy' && (
          <div className={`${styles.prompt} ${styles.promptBuy}`} role="alert" data-testid="drawing-buy-prompt">
            <p className={styles.promptTitle}>{t('buyPromptTitle')}</p>
            <p>{t('buyPromptText')}</p>
            <Link className={styles.promptAction} href={buyHref} data-testid="drawing-buy-link">
              {t('buyPromptLink')}
            </Link>
          </div>
        )}
        {prompt === 'failed' && (
          <p className={`${styles.prompt} ${styles.promptSignIn}`} role="alert">
            {t('downloadFailed')}
          </p>
        )}
      </div>
      <p className={styles.downloadHint}>{t('downloadHint', { fileName })}</p>
    </div>
  );
}
