import 'server-only';
import { cookies } from 'next/headers';
import { createApiClient, DEV_SIGN_SECRET, endpoints, productDevice, SESSION_COOKIE } from '@xcad/protocol';
import type { ApiClient, TMemProfileResponse } from '@xcad/protocol';
import { isSessionRefused } from '@/lib/auth/session-refused';
import { SITE_URL } from '@/lib/site-url';

// The web server's own signed client of the product API, for pages rendered per visitor (the
// personal centre). It calls the API directly, not through the front server's /api proxy, at the
// origin server/main.ts proxies to.

const API_ORIGIN = process.env.API_ORIGIN ?? `http://127.0.0.1:${process.env.API_PORT ?? 3001}`;

/** One fixed device id for every server-side call: they come from this server, not a browser. */
const SERVER_DEVICE_ID = 'xcad-web-ssr';

let client: ApiClient | null = null;

export function serverApiClient(): ApiClient {
  client ??= createApiClient({
    baseUrl: API_ORIGIN,
    secret: process.env.PRODUCT_SIGN_SECRET ?? DEV_SIGN_SECRET,
    domain: new URL(SITE_URL).host,
    device: () => productDevice(SERVER_DEVICE_ID, { deviceos: 'server' }),
  });
  return client;
}

export type ServerProfile = TMemProfileResponse['userinfo'];

export type ServerSession =
  | { readonly kind: 'signedIn'; readonly profile: ServerProfile }
  | { readonly kind: 'signedOut' }
  /** The API could not be asked (down, timed out): neither signed in nor out is known. */
  | { readonly kind: 'unavailable' };

/**
 * The visitor's account, from the HttpOnly session cookie the API sets at sign-in: `memprofile`
 * with the vip list. Reading cookies makes the calling page dynamic (rendered per request, never
 * shared-cached), as per-user pages must be.
 */
export async function readServerSession(): Promise<ServerSession> {
  const usertoken = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!usertoken) return { kind: 'signedOut' };
  try {
    const answer = await serverApiClient().call(endpoints.memprofile, { usertoken, showvip: true });
    return { kind: 'signedIn', profile: answer.userinfo };
  } catch (error) {
    if (isSessionRefused(error)) return { kind: 'signedOut' };
    console.error(`[web] memprofile for a personal page failed: ${error instanceof Error ? error.message : String(error)}`);
    return { kind: 'unavailable' };
  }
}
