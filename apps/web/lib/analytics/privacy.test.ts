import { describe, expect, it } from 'vitest';
import {
  CONSENT_STORAGE_KEY,
  clearConsent,
  hasOptOutSignal,
  isTrackingAllowed,
  readConsent,
  shouldAskConsent,
  writeConsent,
} from './privacy';

// Decision 0022: Do-Not-Track, Global Privacy Control and the consent choice.

function memoryStorage() {
  const map = new Map<string, string>();
  return { map, getItem: (key: string) => map.get(key) ?? null, setItem: (key: string, value: string) => void map.set(key, value) };
}

describe('privacy signals and consent', () => {
  it('reads Do-Not-Track and Global Privacy Control as opting out', () => {
    expect(hasOptOutSignal({ doNotTrack: '1' })).toBe(true);
    expect(hasOptOutSignal({ globalPrivacyControl: true })).toBe(true);
    expect(hasOptOutSignal({ doNotTrack: '0', globalPrivacyControl: false })).toBe(false);
    expect(hasOptOutSignal({ doNotTrack: null })).toBe(false);
  });

  it('measures until the visitor declines, never with a browser signal', () => {
    expect(isTrackingAllowed({}, null)).toBe(true);
    expect(isTrackingAllowed({}, 'granted')).toBe(true);
    expect(isTrackingAllowed({}, 'denied')).toBe(false);
    expect(isTrackingAllowed({ doNotTrack: '1' }, 'granted')).toBe(false);
  });

  it('asks only a visitor who has not chosen and sends no signal', () => {
    expect(shouldAskConsent({}, null)).toBe(true);
    expect(shouldAskConsent({}, 'denied')).toBe(false);
    expect(shouldAskConsent({ globalPrivacyControl: true }, null)).toBe(false);
  });

  it('remembers the choice, and reads anything else as no choice', () => {
    const storage = memoryStorage();
    expect(readConsent(storage)).toBeNull();
    expect(writeConsent(storage, 'denied')).toBe(true);
    expect(readConsent(storage)).toBe('denied');
    storage.map.set(CONSENT_STORAGE_KEY, 'maybe');
    expect(readConsent(storage)).toBeNull();
    expect(writeConsent(null, 'granted')).toBe(false);
    const broken = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(readConsent(broken)).toBeNull();
    expect(writeConsent(broken, 'granted')).toBe(false);
    expect(clearConsent(broken)).toBe(false);
  });

  it('forgets the choice when the visitor wants to choose again', () => {
    const storage = memoryStorage();
    writeConsent(storage, 'denied');
    expect(clearConsent(storage)).toBe(true);
    expect(readConsent(storage)).toBeNull();
    expect(shouldAskConsent({}, readConsent(storage))).toBe(true);
  });
});
