// The other links of the 404 page (spec §2): /buy.html on the site, and three external links
// whose addresses depend on the deployment. Each has an env override, read on the server.

/**
 * The tab title of every not-found page, in the locale's title template ('404 - 迅捷CAD'): the
 * same words in every locale, so even the not-found page of a missing article, which cannot read
 * its locale (app/[locale]/not-found.tsx), is titled like the others and never like the home page.
 */
export const NOT_FOUND_TITLE = '404';

export interface NotFoundLink {
  /** Message key under `notFound`. */
  readonly key: 'buy' | 'downloads' | 'viewer' | 'agreement';
  readonly href: string;
  readonly isExternal: boolean;
}

function env(name: string, fallback: string): string {
  return process.env[name]?.trim() || fallback;
}

export function notFoundLinks(): readonly NotFoundLink[] {
  return [
    { key: 'buy', href: '/buy.html', isExternal: false },
    // SITE_DOWNLOADS_URL: the vendor's download centre (default https://www.xunjiecad.com/download.html).
    { key: 'downloads', href: env('SITE_DOWNLOADS_URL', 'https://www.xunjiecad.com/download.html'), isExternal: true },
    // SITE_VIEWER_URL: the online drawing viewer site (default https://www.xunjiecad.com/kantu).
    { key: 'viewer', href: env('SITE_VIEWER_URL', 'https://www.xunjiecad.com/kantu'), isExternal: true },
    // SITE_AGREEMENT_URL: the user agreement (default https://www.xunjiecad.com/agreement.html).
    { key: 'agreement', href: env('SITE_AGREEMENT_URL', 'https://www.xunjiecad.com/agreement.html'), isExternal: true },
  ];
}
