'use client';

import { usePathname } from 'next/navigation';
import { useEffect } from 'react';
import enErrors from '@/messages/en/errors.json';
import zhErrors from '@/messages/zh-CN/errors.json';
import { reloadOnChunkError } from '@/components/app/chunk-reload-guard';
import { splitLocalePath } from '@/lib/i18n/locales';

// spec §2 "Layouts": if rendering the error itself fails (the layouts are gone), a plain notice
// with a link back home. No providers exist here, so the message files are read directly.
export default function GlobalError({ error }: { error: Error & { digest?: string } }) {
  const pathname = usePathname();
  useEffect(() => {
    if (!reloadOnChunkError(error)) console.error(error);
  }, [error]);

  const isEnglish = splitLocalePath(pathname ?? '/').locale === 'en';
  const t = isEnglish ? enErrors : zhErrors;
  return (
    <html lang={isEnglish ? 'en' : 'zh-CN'}>
      <body style={{ margin: 0, fontFamily: 'system-ui, sans-serif', color: '#1f2329' }}>
        <main style={{ maxWidth: 480, margin: '20vh auto 0', padding: '0 24px', textAlign: 'center' }}>
          <h1 style={{ fontSize: 22, fontWeight: 600 }}>{t.fatalTitle}</h1>
          <p style={{ color: '#646a73', lineHeight: 1.7 }}>{t.fatalMessage}</p>
          <p style={{ marginTop: 24 }}>
            {/* A plain link: the client router may be what failed. */}
            <a href={isEnglish ? '/en' : '/'} style={{ color: '#2468f2' }}>
              {t.home}
            </a>
          </p>
        </main>
      </body>
    </html>
  );
}
