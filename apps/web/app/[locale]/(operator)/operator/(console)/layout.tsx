import type { ReactNode } from 'react';
import { ConsoleShell } from '@/components/operator/console/console-shell';
import { requireOperator } from '@/lib/operator/server';

// Every console page (decision 0042) is rendered per request for a signed-in operator: without a
// live console session the visitor goes to /operator/login; each page then checks its own section.
export const dynamic = 'force-dynamic';

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const me = await requireOperator();
  return <ConsoleShell me={me}>{children}</ConsoleShell>;
}
