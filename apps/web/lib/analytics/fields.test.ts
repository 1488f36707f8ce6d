import { ANALYTICS_EVENTS, ZAnalyticsEvent, type TAnalyticsEvent } from '@xcad/protocol';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { TEXT_LIMITS, clipEvent, clipText } from './fields';

// The tracker's text limits must be the catalogue's own (fields.ts explains why they are a copy).

/** Every text field of an event schema with its maximum length, read from the zod schema. */
function schemaLimits(name: TAnalyticsEvent): Record<string, number> {
  const option = ZAnalyticsEvent.options.find((candidate) => candidate.shape.event.value === name);
  if (!option) throw new Error(`no schema for ${name}`);
  const limits: Record<string, number> = {};
  for (const [key, field] of Object.entries(option.shape as Record<string, z.ZodType>)) {
    let inner: z.ZodType = field;
    while ('unwrap' in inner && typeof inner.unwrap === 'function') inner = (inner as z.ZodOptional<z.ZodType>).unwrap();
    const max = (inner as { maxLength?: number | null }).maxLength;
    if (typeof max === 'number') limits[key] = max;
  }
  return limits;
}

describe('text limits', () => {
  it.each(ANALYTICS_EVENTS)('are the catalogue’s for %s', (name) => {
    expect(TEXT_LIMITS[name]).toEqual(schemaLimits(name));
  });

  it('cuts without splitting a surrogate pair, and drops undefined fields', () => {
    expect(clipText('abc', 5)).toBe('abc');
    expect(clipText('ab😀', 3)).toBe('ab');
    const clipped = clipEvent({ event: 'view', title: 'x'.repeat(300), name: undefined } as never) as Record<string, unknown>;
    expect((clipped.title as string).length).toBe(256);
    expect('name' in clipped).toBe(false);
  });

  it('makes texts the collector would refuse acceptable instead of losing the event', () => {
    const event = {
      event: 'view',
      software_name: 'web',
      software_version: 'online',
      channel: '',
      platform: 'WEB',
      uid: 'u',
      device_id: 'd',
      page: '/a\u0000b',
      time: 1,
      title: 'x\ud800\u0007y',
    };
    const clipped = clipEvent(event as never) as Record<string, unknown>;
    expect(clipped).toMatchObject({ page: '/a b', title: 'x\ufffd y' });
    expect(ZAnalyticsEvent.safeParse(clipped).success).toBe(true);
  });
});
