import type { Migration } from 'kysely';
import * as requestNonce from './2026-11-21T1900_request-nonce';
import * as accounts from './2026-11-21T2200_accounts';
import * as content from './2026-11-21T2300_content';

// A static map rather than a folder scan, so migrations load the same under tsx, Vitest and
// bundlers. Names sort in the order they apply; add new ones at the end.
export const migrations: Record<string, Migration> = {
  '2026-11-21T1900_request-nonce': requestNonce,
  '2026-11-21T2200_accounts': accounts,
  '2026-11-21T2300_content': content,
};
