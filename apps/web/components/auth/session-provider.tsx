'use client';

import type { LocalMembershipState, TUserInfo } from '@xcad/protocol';
import { usePathname, useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { createContext, useCallback, useContext, useEffect, useMemo, useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import { useToast } from '@/components/app/app-state';
import { useSiteLocale } from '@/components/site/use-site-locale';
import { createSessionStore, UNKNOWN_SESSION } from '@/lib/auth/session-store';
import type { SessionSnapshot, SessionStatus, SessionStore } from '@/lib/auth/session-store';
import { readOrCreateDeviceId } from '@/lib/device-id';
import { splitLocalePath } from '@/lib/i18n/locales';
import { isPersonalPath } from '@/lib/navigation/menu';

export interface SessionApi {
  /** 'unknown' until the browser has read storage (server render and hydration). */
  readonly status: SessionStatus;
  readonly user: TUserInfo | null;
  readonly membership: LocalMembershipState | null;
  /** After every successful login: keeps the user and their membership. */
  signIn(userinfo: TUserInfo): void;
  /** Ends the session on the server (best effort) and here; toasts and leaves a personal page. */
  signOut(): Promise<void>;
  /** A newer answer about the same user (nickname, new tokens after a password change). */
  update(userinfo: TUserInfo): void;
  /** spec §4: asks the membership of the six products again (after sign-in, after a purchase). */
  refreshMembership(): Promise<void>;
}

const SessionContext = createContext<SessionApi | null>(null);

function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

// One store per page, created on first use in the browser (never during the server render).
let browserStore: SessionStore | null = null;

function sessionStore(): SessionStore {
  browserStore ??= createSessionStore({
    storage: safeLocalStorage(),
    deviceId: () => readOrCreateDeviceId(safeLocalStorage(), () => crypto.randomUUID()),
    now: () => Math.floor(Date.now() / 1000),
  });
  return browserStore;
}

function subscribe(listener: () => void): () => void {
  const store = sessionStore();
  const unsubscribe = store.subscribe(listener);
  // spec §3: the session is shared by the browser's tabs; another tab's change arrives as a storage event.
  const onStorage = (event: StorageEvent) => {
    if (event.storageArea === null || event.storageArea === safeLocalStorage()) store.handleExternalChange(event.key);
  };
  window.addEventListener('storage', onStorage);
  return () => {
    unsubscribe();
    window.removeEventListener('storage', onStorage);
  };
}

const getSnapshot = (): SessionSnapshot => sessionStore().getSnapshot();
const getServerSnapshot = (): SessionSnapshot => UNKNOWN_SESSION;

// The stored session is checked with the server once per page load.
let hasValidated = false;

/** The session's API calls, loaded when first needed (lib/auth/session-calls.ts). */
const sessionCalls = () => import('@/lib/auth/session-calls');

export function SessionProvider({ children }: { children: ReactNode }) {
  const t = useTranslations('account');
  const toast = useToast();
  const router = useRouter();
  const pathname = usePathname();
  const { href } = useSiteLocale();
  const snapshot = useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot);

  useEffect(() => {
    if (hasValidated) return;
    hasValidated = true;
    const store = sessionStore();
    // A failed module load (offline) leaves the session as stored: it is checked on the next page.
    if (store.getSnapshot().user)
      sessionCalls().then(
        (calls) => calls.validateStoredSession(store),
        () => undefined,
      );
  }, []);

  const refreshMembership = useCallback(async () => {
    try {
      await (await sessionCalls()).refreshMembership(sessionStore());
    } catch {
      // The module could not load (offline): the membership stays as it was.
    }
  }, []);
  const signIn = useCallback(
    (userinfo: TUserInfo) => {
      sessionStore().signIn(userinfo);
      // spec §4: after login six products are queried.
      void refreshMembership();
    },
    [refreshMembership],
  );
  const update = useCallback((userinfo: TUserInfo) => sessionStore().update(userinfo), []);

  const signOut = useCallback(async () => {
    const store = sessionStore();
    const { user } = store.getSnapshot();
    if (user) {
      try {
        await (await sessionCalls()).logoutOnServer(user);
      } catch {
        // The module itself could not load (offline): the session still ends here.
      }
    }
    store.clear();
    toast.success(t('toast.signedOut'));
    // spec §2: logging out from a personal page returns to the home page.
    if (isPersonalPath(splitLocalePath(pathname).rest)) router.push(href('/'));
  }, [href, pathname, router, t, toast]);

  const api = useMemo<SessionApi>(
    () => ({ ...snapshot, signIn, signOut, update, refreshMembership }),
    [snapshot, signIn, signOut, update, refreshMembership],
  );
  return <SessionContext.Provider value={api}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionApi {
  const api = useContext(SessionContext);
  if (!api) throw new Error('useSession() must be used inside <SessionProvider>');
  return api;
}
