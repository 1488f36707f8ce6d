import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { lifecycleEventsOf, lifecycleScript } from './lifecycle';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xcad-lifecycle-'));
  dirs.push(dir);
  return dir;
};

describe('desktop lifecycle events', () => {
  it('activates once per data folder and starts up every launch', () => {
    const dir = path.join(tempDir(), 'not-yet-made');
    expect(lifecycleEventsOf(dir)).toEqual(['activation', 'startup']);
    expect(lifecycleEventsOf(dir)).toEqual(['startup']);
    expect(lifecycleEventsOf(dir)).toEqual(['startup']);
  });

  it('reports a start-up only when the folder cannot be written', () => {
    const file = path.join(tempDir(), 'a-file');
    writeFileSync(file, '');
    expect(lifecycleEventsOf(path.join(file, 'below'))).toEqual(['startup']);
  });

  it('queues the events for a tracker that has not started, and hands them to one that has', () => {
    const before: { xcadAnalyticsQueue?: unknown } = {};
    runInNewContext(lifecycleScript(['activation', 'startup']), { window: before });
    expect(before.xcadAnalyticsQueue).toEqual([{ event: 'activation' }, { event: 'startup' }]);

    const received: unknown[] = [];
    const after = { xcadAnalyticsQueue: { push: (event: unknown) => received.push(event) } };
    runInNewContext(lifecycleScript(['startup']), { window: after });
    expect(received).toEqual([{ event: 'startup' }]);
  });
});
