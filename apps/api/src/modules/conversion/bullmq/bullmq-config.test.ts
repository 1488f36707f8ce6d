import { describe, expect, it } from 'vitest';
import { bullmqPriority, conversionJobOptions, conversionWorkerTiming } from './bullmq-config';

// Decision 0019: the policy the API and the worker processes share for BullMQ jobs.

describe('bullmqPriority', () => {
  it("puts members' tasks (10) before visitors' (0): BullMQ runs the lower number first", () => {
    expect(bullmqPriority(10)).toBeLessThan(bullmqPriority(0));
    expect(bullmqPriority(0)).toBe(1000);
  });

  it('stays within what BullMQ accepts: a positive integer up to 2^21', () => {
    expect(bullmqPriority(5000)).toBe(1);
    expect(bullmqPriority(-1e9)).toBe(2_097_152);
    expect(Number.isInteger(bullmqPriority(2.6))).toBe(true);
  });
});

describe('conversionJobOptions', () => {
  it('makes one job per tasktag, tried three times with back-off like the local queue', () => {
    expect(conversionJobOptions('tag', 10)).toMatchObject({
      jobId: 'tag',
      priority: 990,
      attempts: 3,
      backoff: { type: 'exponential', delay: 10_000 },
    });
    expect(conversionJobOptions('tag', 0, 100).backoff).toEqual({ type: 'exponential', delay: 100 });
  });
});

describe('conversionWorkerTiming', () => {
  it('hands a dead worker’s job on after its time limit, at most 30 s, checking twice as often', () => {
    expect(conversionWorkerTiming(8)).toEqual({ lockDuration: 8_000, stalledInterval: 4_000, maxStalledCount: 3 });
    expect(conversionWorkerTiming(180)).toEqual({ lockDuration: 30_000, stalledInterval: 15_000, maxStalledCount: 3 });
  });
});
