import { downloadsOf } from './software';

// The browser's read of a product's current download count (the page itself is static, ISR);
// the server-side reads are in ./software-api.ts.

/** The count the API has now, or null for an answer without one; rejects on a network failure. */
export async function readDownloadCount(productKey: string): Promise<number | null> {
  const response = await fetch(`/api/site/software/${encodeURIComponent(productKey)}`, { cache: 'no-store' });
  return downloadsOf(response.ok ? await response.json() : null);
}
