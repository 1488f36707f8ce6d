import { describe, expect, it } from 'vitest';
import { readOrCreateDeviceId } from './device-id';
import type { KeyValueStorage } from './device-id';

function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage & { data: Record<string, string> } {
  const data = { ...initial };
  return { data, getItem: (key) => data[key] ?? null, setItem: (key, value) => void (data[key] = value) };
}

describe('device id (spec §3: _g_uuid)', () => {
  it('is generated once and kept under _g_uuid', () => {
    const storage = memoryStorage();
    let calls = 0;
    const generate = () => `id-${++calls}`;
    expect(readOrCreateDeviceId(storage, generate)).toBe('id-1');
    expect(readOrCreateDeviceId(storage, generate)).toBe('id-1');
    expect(storage.data._g_uuid).toBe('id-1');
    expect(calls).toBe(1);
  });

  it('reuses an id stored earlier', () => {
    expect(readOrCreateDeviceId(memoryStorage({ _g_uuid: 'known' }), () => 'new')).toBe('known');
  });

  it('still yields an id when storage is missing or throws', () => {
    expect(readOrCreateDeviceId(null, () => 'fresh')).toBe('fresh');
    const broken: KeyValueStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(readOrCreateDeviceId(broken, () => 'fresh')).toBe('fresh');
  });
});
