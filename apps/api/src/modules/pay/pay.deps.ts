import type { Database, PayProviderName } from '@xcad/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Env } from '../../env';
import type { PayProvider, PayProviders } from './pay.provider';

// What the pay module's services share (decision 0018): their dependencies, where notices arrive,
// and the provider of a name. Apart from pay.service.ts so the refunds (refund.service.ts, decision
// 0043) use them without pay.service.ts and refund.service.ts importing each other.

export interface PayDeps {
  db: Kysely<Database>;
  env: Env;
  log: FastifyBaseLogger;
  /** Epoch milliseconds. */
  clock: () => number;
  providers: PayProviders;
}

/** Where a provider posts its notices (unsigned; verified by the provider's own signature). */
export function noticePathOf(provider: PayProviderName): string {
  return `/api/pay/notify/${provider}`;
}

export function providerNamed(deps: PayDeps, name: PayProviderName): PayProvider | undefined {
  return Object.values(deps.providers).find((provider) => provider.name === name);
}
