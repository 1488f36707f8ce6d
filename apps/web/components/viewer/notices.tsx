'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { useSiteLocale } from '@/components/site/use-site-locale';
import Link from '@/components/ui/link';
import type { DrawingNotices } from '@/lib/viewer/types';
import { ViewerIcon } from './viewer-icons';
import styles from './viewer.module.css';

// What the viewer tells about an opened drawing (FACTS.md: say which fonts and xrefs are missing,
// and which objects are not shown), and the LibreDWG notice with its source for DWG files
// (decision 0016).

const LIST_MAX = 6;
const LIBREDWG_SOURCE = 'https://git.savannah.gnu.org/cgit/libredwg.git';
const LIBREDWG_WEB_SOURCE = 'https://github.com/mlightcad/libredwg-web';
const GPL_TEXT = 'https://www.gnu.org/licenses/gpl-3.0.txt';
const FEEDBACK_PATH = '/feedback.html';

function shortList(items: readonly string[]): string {
  return items.length > LIST_MAX ? `${items.slice(0, LIST_MAX).join(', ')} …(+${items.length - LIST_MAX})` : items.join(', ');
}

export function Notices({ notices, isDwg }: { readonly notices: DrawingNotices; readonly isDwg: boolean }) {
  const t = useTranslations('viewer');
  const { href } = useSiteLocale();
  const [dismissed, setDismissed] = useState(false);
  const [sourceOpen, setSourceOpen] = useState(false);
  // On a phone the notices fold to their first line (the drawing needs the height); 展开 shows all.
  const [isExpanded, setExpanded] = useState(false);
  const lines: { key: string; text: string; tone: 'info' | 'warn' }[] = [];
  if (notices.truncated) lines.push({ key: 'truncated', text: t('notices.truncated'), tone: 'warn' });
  if (notices.missingFonts.length)
    lines.push({ key: 'fonts', text: t('notices.missingFonts', { fonts: shortList(notices.missingFonts) }), tone: 'info' });
  if (notices.missingCharacters.length)
    lines.push({ key: 'chars', text: t('notices.missingCharacters', { chars: shortList(notices.missingCharacters) }), tone: 'warn' });
  if (notices.unsupported.length)
    lines.push({
      key: 'unsupported',
      text: t('notices.unsupported', { objects: shortList(notices.unsupported.map((u) => `${u.type} ×${u.count}`)) }),
      tone: 'warn',
    });
  if (notices.tarch) lines.push({ key: 'tarch', text: t('notices.tarch', { count: notices.tarch }), tone: 'warn' });
  if (notices.xrefs.length) lines.push({ key: 'xrefs', text: t('notices.xrefs', { names: shortList(notices.xrefs) }), tone: 'warn' });
  if (!isDwg && (dismissed || lines.length === 0)) return null;
  return (
    <div className={styles.notices} data-testid="viewer-notices">
      {isDwg && (
        <p className={styles.dwgNotice} data-testid="viewer-dwg-notice">
          {t('notices.dwg')}{' '}
          <button type="button" className={styles.linkButton} onClick={() => setSourceOpen(!sourceOpen)} aria-expanded={sourceOpen}>
            {t('notices.dwgSource')}
          </button>
        </p>
      )}
      {isDwg && sourceOpen && (
        <div className={styles.sourceBox} data-testid="viewer-dwg-source">
          <p className={styles.sourceTitle}>{t('dwgSource.title')}</p>
          <p>{t('dwgSource.text')}</p>
          <ul>
            <li>
              <a href={LIBREDWG_SOURCE} rel="noopener noreferrer" target="_blank">
                {t('dwgSource.libredwg')}
              </a>
            </li>
            <li>
              <a href={LIBREDWG_WEB_SOURCE} rel="noopener noreferrer" target="_blank">
                {t('dwgSource.libredwgWeb')}
              </a>
            </li>
            <li>
              <a href={GPL_TEXT} rel="noopener noreferrer" target="_blank">
                {t('dwgSource.license')}
              </a>
            </li>
          </ul>
          <p>
            {t('dwgSource.offer')} <Link href={href(FEEDBACK_PATH)}>{t('dwgSource.feedback')}</Link>
          </p>
        </div>
      )}
      {!dismissed && lines.length > 0 && (
        <div className={styles.noticeBox} data-expanded={isExpanded} data-testid="viewer-notice-box">
          <ul>
            {lines.map((line) => (
              <li key={line.key} data-tone={line.tone} data-testid={`viewer-notice-${line.key}`}>
                {line.text}
              </li>
            ))}
          </ul>
          <button
            type="button"
            className={`${styles.linkButton} ${styles.noticeToggle}`}
            aria-expanded={isExpanded}
            onClick={() => setExpanded(!isExpanded)}
            data-testid="viewer-notice-toggle"
          >
            {isExpanded ? t('notices.collapse') : lines.length > 1 ? t('notices.expand', { count: lines.length }) : t('notices.expandOne')}
          </button>
          <button type="button" className={styles.iconButton} onClick={() => setDismissed(true)} aria-label={t('notices.dismiss')}>
            <ViewerIcon name="close" size={16} />
          </button>
        </div>
      )}
    </div>
  );
}
