import type { KeyValueStorage } from '@/lib/device-id';

// When the site may measure a visitor at all (decision 0022): never with Do-Not-Track or Global
// Privacy Control on, never after the visitor declined in the consent bar. Until they choose, the
// bar asks and the site measures (the bar says so); declining also deletes what was waiting.

export type ConsentChoice = 'granted' | 'denied';

export const CONSENT_STORAGE_KEY = 'xcad_analytics_consent';

/** The parts of `navigator` that carry a privacy signal. */
export interface PrivacySignals {
  readonly doNotTrack?: string | null;
  readonly globalPrivacyControl?: boolean;
}

/** Do-Not-Track ('1') or Global Privacy Control asks not to be tracked. */
export function hasOptOutSignal(signals: PrivacySignals): boolean {
  return signals.doNotTrack === '1' || signals.globalPrivacyControl === true;
}

/** The stored choice; null when the visitor has not chosen (or storage cannot be read). */
export function readConsent(storage: KeyValueStorage | null): ConsentChoice | null {
  try {
    const value = storage?.getItem(CONSENT_STORAGE_KEY);
    return value === 'granted' || value === 'denied' ? value : null;
  } catch {
    return null;
  }
}

/** Remembers the choice; false when it could not be stored (it then holds for this page only). */
export function writeConsent(storage: KeyValueStorage | null, choice: ConsentChoice): boolean {
  try {
    if (!storage) return false;
    storage.setItem(CONSENT_STORAGE_KEY, choice);
    return true;
  } catch {
    return false;
  }
}

/** Forgets the choice (the visitor wants to choose again); false when storage refused. */
export function clearConsent(storage: KeyValueStorage | null): boolean {
  try {
    if (!storage) return false;
    storage.setItem(CONSENT_STORAGE_KEY, '');
    return true;
  } catch {
    return false;
  }
}

export function isTrackingAllowed(signals: PrivacySignals, consent: ConsentChoice | null): boolean {
  return !hasOptOutSignal(signals) && consent !== 'denied';
}

/** The consent bar asks only a visitor who has neither chosen nor opted out by a browser signal. */
export function shouldAskConsent(signals: PrivacySignals, consent: ConsentChoice | null): boolean {
  return !hasOptOutSignal(signals) && consent === null;
}
