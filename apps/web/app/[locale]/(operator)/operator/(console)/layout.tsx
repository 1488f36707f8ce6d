import type { ReactNode } from 'react';
import { ZOperatorMe } from '@xcad/protocol';
import { ConsoleShell } from '@/components/operator/console/console-shell';
import { operatorRead } from '@/lib/operator/server';

// Every console page (decision 0042) is rendered per request. With a live console session the page
// sits in the console's shell; without one the page itself sends the visitor to /operator/login
// (each page knows its own address, to come back to after signing in).
export const dynamic = 'force-dynamic';

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const me = await operatorRead('/api/operator/me', ZOperatorMe);
  if (me.kind !== 'ok') return children;
  return <ConsoleShell me={me.body}>{children}</ConsoleShell>;
}
