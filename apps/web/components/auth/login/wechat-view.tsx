'use client';

import { useMemo } from 'react';
import { useTranslations } from 'next-intl';
import { renderSVG } from 'uqr';
import { Spinner } from '@/components/ui/spinner';
import type { CachedLoginSession } from '@/lib/auth/login-flow';
import { useLoginFlow } from './login-flow-context';
import styles from './login.module.css';
import { OtherMethods } from './other-methods';
import { useWechatQr, type WechatQrStatus } from './use-wechat-qr';

// spec §2, §4: the default view — a WeChat QR code whose state is polled every second, with the
// expired and abnormal-account covers, and the ways to the phone view and the QQ popup.

function QrCode({ session, label }: { readonly session: CachedLoginSession; readonly label: string }) {
  const svg = useMemo(
    () => (session.qrtype === 'link' ? renderSVG(session.qrurl, { border: 0, ecc: 'M', blackColor: '#1f2329' }) : ''),
    [session.qrtype, session.qrurl],
  );
  if (session.qrtype === 'iframe') {
    return <iframe className={styles.qrFrame} data-testid="wechat-qr" data-logintag={session.logintag} src={session.qrurl} title={label} />;
  }
  // The SVG is built here from our own URL by uqr: rectangles only, nothing from the network.
  return (
    <div
      className={styles.qrImage}
      data-testid="wechat-qr"
      data-logintag={session.logintag}
      role="img"
      aria-label={label}
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  );
}

const STATUS_KEYS = {
  loading: 'loading',
  pending: 'pending',
  scanned: 'scanned',
  expired: 'expired',
  illegal: 'illegal',
  done: 'done',
} as const satisfies Record<WechatQrStatus, string>;

export function WechatView({ titleId }: { readonly titleId: string }) {
  const t = useTranslations('login');
  const { finish } = useLoginFlow();
  const qr = useWechatQr(finish);
  const cover = qr.status === 'expired' || qr.status === 'illegal' ? qr.status : null;
  const coverText = cover === 'illegal' ? t('wechat.illegal') : qr.message || t('wechat.expired');

  return (
    <section className={styles.view} data-testid="login-view-wechat">
      <h2 id={titleId} className={styles.title}>
        {t('titles.wechat')}
      </h2>
      <div className={styles.qrBox} aria-busy={qr.status === 'loading'}>
        {qr.session ? <QrCode session={qr.session} label={t('wechat.qrLabel')} /> : <Spinner />}
        {cover && (
          <div className={styles.qrCover} data-testid="wechat-cover" data-reason={cover}>
            <p className={styles.qrCoverText}>{coverText}</p>
            <button type="button" className={styles.qrReload} data-testid="wechat-reload" onClick={qr.refresh}>
              {cover === 'illegal' ? t('wechat.reload') : t('wechat.refresh')}
            </button>
          </div>
        )}
      </div>
      <p
        className={`${styles.qrStatus} ${qr.status === 'scanned' || qr.status === 'done' ? styles.qrStatusGood : ''}`}
        data-testid="wechat-status"
        data-status={qr.status}
        aria-live="polite"
      >
        {cover ? coverText : t(`wechat.${STATUS_KEYS[qr.status]}`)}
      </p>
      <OtherMethods switchTo="phone" />
    </section>
  );
}
