'use client';

import { endpoints } from '@xcad/protocol';
import type { LocalMembershipState, TUserInfo } from '@xcad/protocol';
import { usePathname, useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { createContext, useCallback, useContext, useEffect, useMemo, useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import { useToast } from '@/components/app/app-state';
import { useSiteLocale } from '@/components/site/use-site-locale';
import { apiClient } from '@/lib/api/client';
import { createSessionStore, isSessionRefused, UNKNOWN_SESSION } from '@/lib/auth/session-store';
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

async function validateStoredSession(store: SessionStore): Promise<void> {
  const { user } = store.getSnapshot();
  if (!user) return;
  try {
    const client = await apiClient();
    const answer = await client.call(endpoints.memprofile, { usertoken: user.usertoken, account: user.username, showvip: true });
    // Another tab may have signed out or in as someone else meanwhile.
    if (store.getSnapshot().user?.usertoken === user.usertoken) store.update(answer.userinfo);
  } catch (error) {
    // Expired or revoked: signed out here too, without a word (the user did nothing).
    if (isSessionRefused(error) && store.getSnapshot().user?.usertoken === user.usertoken) store.clear();
    // Network failures keep the session: it is checked again on the next page load.
  }
}

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
    void validateStoredSession(sessionStore());
  }, []);

  const signIn = useCallback((userinfo: TUserInfo) => sessionStore().signIn(userinfo), []);
  const update = useCallback((userinfo: TUserInfo) => sessionStore().update(userinfo), []);

  const signOut = useCallback(async () => {
    const store = sessionStore();
    const { user } = store.getSnapshot();
    if (user) {
      try {
        const client = await apiClient();
        await client.call(endpoints.logout, { usertoken: user.usertoken, account: user.username });
      } catch {
        // The token is forgotten here whatever the server said; it expires there on its own.
      }
    }
    store.clear();
    toast.success(t('toast.signedOut'));
    // spec §2: logging out from a personal page returns to the home page.
    if (isPersonalPath(splitLocalePath(pathname).rest)) router.push(href('/'));
  }, [href, pathname, router, t, toast]);

  const api = useMemo<SessionApi>(
    () => ({ ...snapshot, signIn, signOut, update }),
    [snapshot, signIn, signOut, update],
  );
  return <SessionContext.Provider value={api}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionApi {
  const api = useContext(SessionContext);
  if (!api) throw new Error('useSession() must be used inside <SessionProvider>');
  return api;
}
