'use client';

import type { ReactNode } from 'react';
import { useTranslations } from 'next-intl';
import { QqIcon, QrCodeIcon, SmartphoneIcon } from '@/components/ui/icons';
import { useLoginFlow } from './login-flow-context';
import styles from './login.module.css';

// spec §2: under the QR code and under the phone view, the other ways to sign in: the other of those
// two views, and the QQ popup.

const SWITCHES = {
  wechat: { testId: 'to-wechat', tone: styles.methodWechat, icon: <QrCodeIcon />, label: 'links.toWechat' },
  phone: { testId: 'to-phone', tone: styles.methodPhone, icon: <SmartphoneIcon />, label: 'links.toPhone' },
} as const;

function MethodButton({
  testId,
  tone,
  icon,
  label,
  isDisabled = false,
  onClick,
}: {
  readonly testId: string;
  readonly tone: string | undefined;
  readonly icon: ReactNode;
  readonly label: string;
  readonly isDisabled?: boolean;
  readonly onClick: () => void;
}) {
  return (
    <button type="button" className={styles.methodButton} data-testid={testId} disabled={isDisabled} onClick={onClick}>
      <span className={`${styles.methodIcon} ${tone}`}>{icon}</span>
      {label}
    </button>
  );
}

/** `switchTo`: the view offered beside QQ; none on /loginPhone's phone view (a phone cannot scan its own QR). */
export function OtherMethods({ switchTo }: { readonly switchTo: keyof typeof SWITCHES | null }) {
  const t = useTranslations('login');
  const { dispatch, qq } = useLoginFlow();
  const other = switchTo ? { view: switchTo, ...SWITCHES[switchTo] } : null;
  return (
    <div className={styles.others}>
      <p className={styles.othersTitle}>
        <span>{t('others')}</span>
      </p>
      <div className={styles.othersRow}>
        {other && (
          <MethodButton
            testId={other.testId}
            tone={other.tone}
            icon={other.icon}
            label={t(other.label)}
            onClick={() => dispatch({ type: 'navigate', view: other.view })}
          />
        )}
        <MethodButton
          testId="qq-login"
          tone={styles.methodQq}
          icon={<QqIcon />}
          label={t('qq.label')}
          isDisabled={qq.isBusy}
          onClick={qq.start}
        />
      </div>
    </div>
  );
}
