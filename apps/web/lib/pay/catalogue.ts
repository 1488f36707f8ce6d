import 'server-only';
import { cache } from 'react';
import { endpoints, type TPayBundle, type TPayProduct } from '@xcad/protocol';
import { serverApiClient } from '@/lib/api/server-client';

// The buy pages' catalogue (decision 0018), read on the server with the signed `paycatalogue` call. The
// pages are static and regenerated every minute (`revalidate` in their page files), so a changed
// price shows within a minute without every visit asking the API.

export type PayCatalogueLoad =
  | { readonly state: 'found'; readonly products: readonly TPayProduct[]; readonly bundles: readonly TPayBundle[] }
  | { readonly state: 'unavailable' };

// The last good answer in this process: a regeneration while the API is briefly down keeps the
// prices it showed instead of replacing a good page with the "unavailable" note for a minute.
let lastGood: Extract<PayCatalogueLoad, { state: 'found' }> | null = null;

// `cache`: metadata and page ask in the same render.
export const loadPayCatalogue = cache(async (): Promise<PayCatalogueLoad> => {
  try {
    const answer = await serverApiClient().call(endpoints.paycatalogue, {});
    lastGood = { state: 'found', products: answer.products, bundles: answer.bundles };
    return lastGood;
  } catch (error) {
    console.error(`[pay] paycatalogue failed: ${error instanceof Error ? error.message : String(error)}`);
    return lastGood ?? { state: 'unavailable' };
  }
});
