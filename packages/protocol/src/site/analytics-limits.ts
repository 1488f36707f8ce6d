// The analytics batch and storage limits, zod-free: the tracker every page loads reads them
// (decision 0015), the collector and the catalogue (analytics.ts) too.

export const ANALYTICS_LIMITS = {
  /** Events in one POST. */
  maxBatch: 50,
  /** The tracker sends when this many are queued, or after `flushMs`. */
  batchSize: 20,
  flushMs: 5000,
  /** Events kept in local storage while offline; the oldest are dropped beyond it. */
  maxStored: 500,
  /** An event older than this (client clock) is refused; one from the future beyond the skew too. */
  maxAgeMs: 7 * 24 * 3600 * 1000,
  maxSkewMs: 10 * 60 * 1000,
  /** Largest request body the collector reads. */
  maxBodyBytes: 64 * 1024,
} as const;
