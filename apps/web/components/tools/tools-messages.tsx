import { NextIntlClientProvider } from 'next-intl';
import { getMessages } from 'next-intl/server';
import type { ReactNode } from 'react';
import type { Locale } from '@/lib/i18n/locales';

// The client parts of the tool pages get only their share of the `tools` namespace: the how-tos
// and questions are rendered on the server and need not travel to the browser again.

export type ToolsClientPart = 'workbench' | 'options' | 'tiers' | 'recent' | 'history' | 'share';

function pick(source: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => key in source).map((key) => [key, source[key]]));
}

export async function ToolsMessages({
  locale,
  parts,
  children,
}: {
  readonly locale: Locale;
  readonly parts: readonly ToolsClientPart[];
  readonly children: ReactNode;
}) {
  const messages = await getMessages({ locale });
  const tools = (messages['tools'] ?? {}) as Record<string, unknown>;
  // Task rows name their tool: the names only, without each tool's copy.
  const byTool = (tools['tool'] ?? {}) as Record<string, Record<string, unknown>>;
  const names = Object.fromEntries(Object.entries(byTool).map(([tool, copy]) => [tool, { name: copy['name'] }]));
  return (
    <NextIntlClientProvider locale={locale} messages={{ tools: { ...pick(tools, parts), tool: names } }} timeZone="Asia/Shanghai">
      {children}
    </NextIntlClientProvider>
  );
}
