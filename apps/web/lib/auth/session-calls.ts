import { endpoints } from '@xcad/protocol';
import { PRODUCTS } from '@xcad/protocol/constants';
import { apiClient } from '@/lib/api/client';
import { isSessionRefused } from './session-refused';
import type { SessionStore } from './session-store';

// The session's calls to the API. The session provider imports this module only when it calls
// (a stored session to check, a logout): the API client and the protocol's schemas then stay off
// the path every page takes before it can answer a tap (decision 0015, Lighthouse).

/** Checks a stored session with the server: an answer refreshes it, a refusal ends it. */
export async function validateStoredSession(store: SessionStore): Promise<void> {
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

/** Ends the session on the server, best effort: the token is forgotten here whatever it said. */
export async function logoutOnServer(user: { usertoken: string; username: string }): Promise<void> {
  try {
    const client = await apiClient();
    await client.call(endpoints.logout, { usertoken: user.usertoken, account: user.username });
  } catch {
    // It expires there on its own.
  }
}

/**
 * spec §4: after sign-in (and after a purchase) the membership of each of the six products is
 * asked with memrole, and the level computed from all six answers and the server's time.
 */
export async function refreshMembership(store: SessionStore): Promise<void> {
  const { user } = store.getSnapshot();
  if (!user) return;
  try {
    const client = await apiClient();
    const answers = await Promise.all(
      PRODUCTS.map((product) =>
        client.call(endpoints.memrole, { account: user.username, usertoken: user.usertoken, productid: product.id }),
      ),
    );
    const vip = answers.flatMap((answer) => answer.userinfo.vip);
    const serverNow = Math.max(...answers.map((answer) => answer.userinfo.nowtime));
    store.setMembership(user.uid, vip, serverNow);
  } catch (error) {
    if (isSessionRefused(error) && store.getSnapshot().user?.usertoken === user.usertoken) store.clear();
    // Network failures keep what was known: the next page load asks again.
  }
}
