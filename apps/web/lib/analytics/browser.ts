'use client';

import type { TAnalyticsCommon, TAnalyticsEventInput } from '@xcad/protocol/analytics';
import { readOrCreateDeviceId } from '@/lib/device-id';
import {
  desktopChannelOf,
  channelOf,
  pagePathOf,
  platformOf,
  randomId,
  readOrCreateUid,
  softwareNameOf,
  softwareVersionOf,
  type DesktopInfo,
  type SiteIdentity,
  type SoftwareVersion,
} from './context';
import { CONSENT_STORAGE_KEY, clearConsent, hasOptOutSignal, readConsent, writeConsent, type ConsentChoice } from './privacy';
import { createTracker, outcomeOfStatus, type PostOutcome, type Tracker } from './tracker';

// The tracker bound to the browser (decision 0022): one per page, configured by
// components/analytics/analytics-root.tsx with what the server knows about the deployment.
// Flows call `track()`; events from before the configuration (child effects run first) wait in
// a small buffer with their own time and page. Every entry point swallows its errors.

const COLLECTOR_PATH = '/api/analytics/events';
const DEBUG_STORAGE_KEY = 'xcad_analytics_debug';
/** A POST that has not answered by then is abandoned and retried later. */
const POST_TIMEOUT_MS = 15_000;
/** keepalive requests share a 64 KiB budget per page: larger bodies go as ordinary requests. */
const KEEPALIVE_MAX_BYTES = 60_000;
const EARLY_BUFFER_MAX = 100;

/** What the desktop shell calls for its own events (decision 0022: activation and start-up). */
interface AnalyticsBridge {
  track(input: TAnalyticsEventInput): void;
  trackLifecycle(kind: 'activation' | 'startup'): void;
  /** Sends what is waiting now (one batch); a shell about to quit may call it until `pending()` is 0. */
  flush(): Promise<void>;
  /** Events waiting to be sent (kept in local storage until they are). */
  pending(): number;
}

/** A command queue the desktop shell may fill before the page's tracker has started. */
interface AnalyticsQueue {
  push(input: TAnalyticsEventInput): unknown;
}

declare global {
  interface Window {
    /** Set once the tracker is configured; the desktop shell's preload may call it. */
    xcadAnalytics?: AnalyticsBridge;
    /**
     * Events pushed here at any time, even before the tracker exists (`(window.xcadAnalyticsQueue
     * ??= []).push({ event: 'startup' })`), are tracked once it starts, later ones at once.
     */
    xcadAnalyticsQueue?: AnalyticsQueue | TAnalyticsEventInput[];
  }
}

interface EarlyEvent {
  readonly input: TAnalyticsEventInput;
  readonly at: Pick<TAnalyticsCommon, 'time' | 'page'>;
}

let pageTracker: Tracker | null = null;
let early: EarlyEvent[] = [];
/** The choice made on this page, for a browser whose storage refuses it. */
let pageConsent: ConsentChoice | null = null;
const consentListeners = new Set<() => void>();

function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function desktopBridge(): DesktopInfo | undefined {
  return (window as Window & { desktop?: DesktopInfo }).desktop;
}

function privacySignals() {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  return { doNotTrack: nav.doNotTrack, globalPrivacyControl: nav.globalPrivacyControl };
}

/** The visitor's consent choice (this page's, else the stored one); null before any. */
export function consentChoice(): ConsentChoice | null {
  return pageConsent ?? readConsent(safeLocalStorage());
}

/** Whether measuring is allowed now: no Do-Not-Track or GPC signal, and not declined. */
export function isAnalyticsAllowed(): boolean {
  try {
    return !hasOptOutSignal(privacySignals()) && consentChoice() !== 'denied';
  } catch {
    return false;
  }
}

export function hasBrowserOptOut(): boolean {
  try {
    return hasOptOutSignal(privacySignals());
  } catch {
    return true;
  }
}

/** Records the visitor's choice in the consent bar; declining deletes what was waiting to be sent. */
export function setConsent(choice: ConsentChoice): void {
  pageConsent = choice;
  writeConsent(safeLocalStorage(), choice);
  if (choice === 'denied') {
    early = [];
    pageTracker?.discard();
  }
  consentListeners.forEach((listener) => listener());
}

/** The visitor wants to choose again (the footer's 统计设置): the consent bar comes back. */
export function reopenConsent(): void {
  pageConsent = null;
  clearConsent(safeLocalStorage());
  consentListeners.forEach((listener) => listener());
}

export function subscribeConsent(listener: () => void): () => void {
  consentListeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === CONSENT_STORAGE_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    consentListeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

async function post(body: string, isDebug: boolean): Promise<PostOutcome> {
  try {
    const response = await fetch(COLLECTOR_PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
      credentials: 'same-origin',
      keepalive: body.length <= KEEPALIVE_MAX_BYTES,
      signal: AbortSignal.timeout(POST_TIMEOUT_MS),
    });
    if (isDebug)
      console.info(
        '[analytics] sent',
        response.status,
        await response
          .clone()
          .text()
          .catch(() => ''),
      );
    return outcomeOfStatus(response.status);
  } catch {
    return 'deferred';
  }
}

/** Debug mode: only on the test host; `?debug=1` turns it on for this browser, `?debug=0` off. */
function debugModeOf(version: SoftwareVersion, storage: Storage | null): boolean {
  if (version !== 'test') return false;
  const asked = new URLSearchParams(window.location.search).get('debug');
  try {
    if (asked === '1') storage?.setItem(DEBUG_STORAGE_KEY, '1');
    if (asked === '0') storage?.setItem(DEBUG_STORAGE_KEY, '0');
    return asked === '1' || (asked !== '0' && storage?.getItem(DEBUG_STORAGE_KEY) === '1');
  } catch {
    return asked === '1';
  }
}

function createBrowserTracker(site: SiteIdentity): Tracker {
  const storage = safeLocalStorage();
  const bridge = desktopBridge();
  const version = softwareVersionOf(window.location.hostname, site);
  const isDebug = debugModeOf(version, storage);
  const newId = () => randomId(crypto);
  const fixed = {
    software_name: softwareNameOf(bridge),
    software_version: version,
    channel: desktopChannelOf(bridge) ?? channelOf(window.location.search, storage),
    platform: platformOf(bridge),
    uid: readOrCreateUid(storage, newId),
    device_id: readOrCreateDeviceId(storage, newId),
  };
  return createTracker({
    common: () => ({
      ...fixed,
      page: pagePathOf(window.location.pathname),
      time: Date.now(),
      locale: document.documentElement.lang || undefined,
    }),
    isAllowed: isAnalyticsAllowed,
    storage,
    post: (body) => post(body, isDebug),
    beacon: (body) => {
      try {
        return typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(COLLECTOR_PATH, body);
      } catch {
        return false;
      }
    },
    isOnline: () => navigator.onLine !== false,
    now: () => Date.now(),
    setTimer: (run, ms) => {
      const timer = window.setTimeout(run, ms);
      return () => window.clearTimeout(timer);
    },
    newId,
    debug: isDebug ? (message, detail) => console.info(`[analytics] ${message}`, detail ?? '') : undefined,
  });
}

/**
 * Starts the page's tracker (once): sends what earlier pages left behind, sends with beacons when
 * the page is hidden, and again when the browser comes back online.
 */
export function configureAnalytics(site: SiteIdentity): void {
  if (pageTracker) return;
  try {
    const tracker = createBrowserTracker(site);
    pageTracker = tracker;
    const hide = () => tracker.flushOnHide();
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') hide();
    });
    window.addEventListener('pagehide', hide);
    window.addEventListener('online', () => tracker.resume());
    window.xcadAnalytics = {
      track,
      trackLifecycle: (kind) => track({ event: kind }),
      flush: () => tracker.flush(),
      pending: () => tracker.pending(),
    };
    const waiting = early;
    early = [];
    waiting.forEach(({ input, at }) => tracker.track(input, at));
    const queued = window.xcadAnalyticsQueue;
    if (Array.isArray(queued)) queued.forEach((input) => isEventInput(input) && tracker.track(input));
    window.xcadAnalyticsQueue = {
      push: (input: unknown) => {
        if (isEventInput(input)) track(input);
      },
    };
    tracker.resume();
  } catch (error) {
    pageTracker = null;
    console.warn('[analytics] not started', error);
  }
}

/** What a shell pushed looks like an event (the collector checks the rest). */
function isEventInput(value: unknown): value is TAnalyticsEventInput {
  return typeof value === 'object' && value !== null && typeof (value as { event?: unknown }).event === 'string';
}

/** Queues one event of the catalogue; returns at once, never throws. */
export function track(input: TAnalyticsEventInput, at?: Partial<TAnalyticsCommon>): void {
  try {
    if (pageTracker) {
      pageTracker.track(input, at);
      return;
    }
    if (!isAnalyticsAllowed() || early.length >= EARLY_BUFFER_MAX) return;
    early.push({ input, at: { time: Date.now(), page: pagePathOf(window.location.pathname), ...at } });
  } catch {
    // Measuring never breaks the page.
  }
}
