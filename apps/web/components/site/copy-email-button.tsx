'use client';

import { useTranslations } from 'next-intl';
import { useToast } from '@/components/app/app-state';
import { CopyIcon } from '@/components/ui/icons';

// Pages served over plain http (an intranet install) have no Clipboard API; the old selection
// command still works there, so it is the fallback only when the API is missing.
function copyWithSelection(text: string): void {
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.style.position = 'fixed';
  field.style.opacity = '0';
  document.body.append(field);
  field.select();
  const isCopied = document.execCommand('copy');
  field.remove();
  if (!isCopied) throw new Error('copy command refused');
}

async function copyText(text: string): Promise<void> {
  if (typeof navigator.clipboard?.writeText === 'function') return navigator.clipboard.writeText(text);
  copyWithSelection(text);
}

/** Copies the support mailbox and says so with a toast (or an error toast when copying fails). */
export function CopyEmailButton({ email, className }: { readonly email: string; readonly className?: string }) {
  const t = useTranslations('footer.contact');
  const toast = useToast();

  const copy = async () => {
    try {
      await copyText(email);
      toast.success(t('copied'));
    } catch {
      toast.error(t('copyFailed'));
    }
  };

  return (
    <button
      type="button"
      className={className}
      data-testid="footer-copy-email"
      aria-label={t('copy')}
      title={t('copy')}
      onClick={() => void copy()}
    >
      <CopyIcon size={14} />
    </button>
  );
}
