import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseLimitStore } from '../../limits';
import { createTestApp, type TestApp } from '../../test-app';
import { partitionDays } from './analytics-partitions.repository';
import { createAnalytics } from './analytics.service';
import { beijingDay, beijingTime, DAY_MS, freshDevice, postEvents, trackerEvent } from './analytics.testing';

// Decision 0022: where the events live over time, on SQLite and PostgreSQL. On PostgreSQL each Beijing
// day is a partition: the days ahead exist from start-up, a day without one gets it when an event
// arrives, and the retention sweep drops whole days. On SQLite the same events land in one table
// and the sweep deletes the old days' rows. This file moves its app's clock, so it has its own.

let t: TestApp;
const isPostgres = () => t.database.engine === 'postgres';

beforeAll(async () => {
  t = await createTestApp();
  await t.app.ready();
});

afterAll(async () => {
  await t.close();
});

function daysOf(deviceId: string) {
  return t.database.db.selectFrom('analytics_events').select('day').where('device_id', '=', deviceId).orderBy('day').execute();
}

describe('storage by day', () => {
  it('has partitions for today and the next two days from start-up (PostgreSQL)', async () => {
    const today = beijingDay(t.clock.now());
    const ahead = [0, 1, 2].map((days) => beijingDay(t.clock.now() + days * DAY_MS));
    if (isPostgres()) expect(await partitionDays(t.database.db)).toEqual(ahead);
    // Either engine takes an event of today at once.
    const device = freshDevice();
    expect((await postEvents(t, [trackerEvent(t, device, { event: 'view' })])).json()).toEqual({ accepted: 1, rejected: 0 });
    expect(await daysOf(device)).toEqual([{ day: today }]);
  });

  it('stores an event of a day that had no storage yet, also when two requests bring it at once', async () => {
    const lateDay = beijingDay(beijingTime(t, 5));
    if (isPostgres()) expect(await partitionDays(t.database.db)).not.toContain(lateDay);
    const [first, second] = [freshDevice(), freshDevice()];
    const answers = await Promise.all([
      postEvents(t, [trackerEvent(t, first, { event: 'startup', time: beijingTime(t, 5, 9) })], { ip: '10.40.0.1' }),
      postEvents(t, [trackerEvent(t, second, { event: 'startup', time: beijingTime(t, 5, 21) })], { ip: '10.40.0.2' }),
    ]);
    expect(answers.map((answer) => answer.json())).toEqual([
      { accepted: 1, rejected: 0 },
      { accepted: 1, rejected: 0 },
    ]);
    expect(await daysOf(first)).toEqual([{ day: lateDay }]);
    expect(await daysOf(second)).toEqual([{ day: lateDay }]);
    if (isPostgres()) expect(await partitionDays(t.database.db)).toContain(lateDay);
  });

  it('sweeps the days older than ANALYTICS_RETENTION_DAYS and keeps the rest', async () => {
    const start = t.clock.now();
    const dayOf = (offset: number) => beijingDay(start + offset * DAY_MS);
    const [old, recent] = [freshDevice(), freshDevice()];
    await postEvents(
      t,
      [
        trackerEvent(t, old, { event: 'view', time: beijingTime(t, 6) }),
        trackerEvent(t, old, { event: 'view', time: beijingTime(t, 6, 23, 59) }),
      ],
      { ip: '10.41.0.1' },
    );
    await postEvents(t, [trackerEvent(t, recent, { event: 'view', time: beijingTime(t, 1) })], { ip: '10.41.0.2' });

    // Three days later, with a week of retention, the cut-off is four of the first today's days ago.
    t.clock.advance(3 * DAY_MS);
    const analytics = createAnalytics({
      db: t.database.db,
      env: { ...t.env, ANALYTICS_RETENTION_DAYS: 7 },
      log: pino({ level: 'silent' }),
      clock: t.clock.now,
      limits: new DatabaseLimitStore(t.database.db),
    });
    const swept = await analytics.housekeeping();

    expect(await daysOf(old)).toEqual([]);
    expect(await daysOf(recent)).toEqual([{ day: dayOf(-1) }]);
    if (isPostgres()) {
      // Days -6 (this test) and -5 (the test above) go whole; the three days ahead of the new today are made.
      expect(swept).toEqual({ created: [dayOf(3), dayOf(4), dayOf(5)], dropped: [dayOf(-6), dayOf(-5)], deleted: 0 });
      expect(await partitionDays(t.database.db)).toEqual([dayOf(-1), dayOf(0), dayOf(1), dayOf(2), dayOf(3), dayOf(4), dayOf(5)]);
    } else {
      // The two events of day -6 and the two of day -5 from the test above.
      expect(swept).toEqual({ created: [], dropped: [], deleted: 4 });
    }
    // Nothing left to do a second time.
    expect(await analytics.housekeeping()).toEqual({ created: [], dropped: [], deleted: 0 });
  });
});
