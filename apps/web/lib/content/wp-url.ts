import { desktopBridgeOf } from '@xcad/protocol/desktop';
import { resolveApiUrl } from '@xcad/protocol/urls';

/**
 * spec §7 for the browser's requests to the content API: a relative `wp-` URL gets the site
 * host, with http in the desktop app and the page's protocol elsewhere.
 */
export function wpUrl(url: string): string {
  return resolveApiUrl(url, { host: window.location.host, protocol: window.location.protocol, isDesktop: desktopBridgeOf(window) !== null });
}
