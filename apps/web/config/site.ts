// Site-wide contact, filing and service settings shown by the footer, side bar and mobile footer.
// Each has a default and an environment override, read on the server only (these are not
// NEXT_PUBLIC_ variables: client components receive the values as props). Texts that contain
// Chinese (the default filing numbers) default to messages `footer.json` so no Han text sits in code.

function envList(name: string): string[] | null {
  const value = process.env[name]?.trim();
  if (!value) return null;
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items.length > 0 ? items : null;
}

function envText(name: string): string | null {
  const value = process.env[name]?.trim();
  return value ? value : null;
}

interface FriendLink {
  /** Message key under `footer.friends`. */
  readonly key: string;
  readonly url: string;
}

export interface SiteConfig {
  /** Service hotlines, in display order. */
  readonly phones: readonly string[];
  readonly supportEmail: string;
  /** ICP filing text, e.g. the 沪ICP备…号 number; null shows the default of messages `footer.filing.icp`. */
  readonly icp: string | null;
  /** Public-security filing text; null shows messages `footer.filing.psb` with `psbCode`. */
  readonly psb: string | null;
  /** Public-security filing record code, used in the filing text and its query link. */
  readonly psbCode: string;
  readonly icpUrl: string;
  readonly psbUrl: string;
  /** QQ number of online customer service (spec §2 "Side bar"). */
  readonly qq: string;
  readonly qqChatUrl: string;
  /** Page of the human chat, opened in a 620x700 popup (spec §2 "Side bar"). */
  readonly chatUrl: string;
  /** Where the side bar's download entry leads: a site path or a full URL of an installer. */
  readonly downloadUrl: string;
  /** Sister products linked from the footer. */
  readonly friendLinks: readonly FriendLink[];
  /** Origin of the API that serves `/wp-json/*`, for server-side fetches. */
  readonly apiOrigin: string;
}

function readSiteConfig(): SiteConfig {
  // SITE_QQ: QQ number of online customer service (default 800185621).
  const qq = envText('SITE_QQ') ?? '800185621';
  // SITE_PSB_CODE: public-security filing record code (default 31011502008536).
  const psbCode = envText('SITE_PSB_CODE') ?? '31011502008536';
  return {
    // SITE_PHONES: comma-separated hotlines (default "400-888-2160,021-61259035").
    phones: envList('SITE_PHONES') ?? ['400-888-2160', '021-61259035'],
    // SITE_SUPPORT_EMAIL: support mailbox shown with a copy button (default support@xunjiecad.com).
    supportEmail: envText('SITE_SUPPORT_EMAIL') ?? 'support@xunjiecad.com',
    // SITE_ICP: full ICP filing text (default from messages footer.filing.icp).
    icp: envText('SITE_ICP'),
    // SITE_PSB: full public-security filing text (default from messages footer.filing.psb).
    psb: envText('SITE_PSB'),
    psbCode,
    icpUrl: 'https://beian.miit.gov.cn/',
    psbUrl: `https://beian.mps.gov.cn/#/query/webSearch?code=${encodeURIComponent(psbCode)}`,
    qq,
    qqChatUrl: `https://wpa.qq.com/msgrd?v=3&uin=${encodeURIComponent(qq)}&site=qq&menu=yes`,
    // SITE_CHAT_URL: human chat page opened in the side bar's popup (default the vendor's chat desk).
    chatUrl: envText('SITE_CHAT_URL') ?? 'https://kefu.xunjiecad.com/chat?product=141',
    // SITE_DOWNLOAD_URL: the side bar's download link (default /download.html).
    downloadUrl: envText('SITE_DOWNLOAD_URL') ?? '/download.html',
    friendLinks: [
      { key: 'pdf', url: 'https://www.xunjiepdf.com/' },
      { key: 'video', url: 'https://www.xunjieshipin.com/' },
    ],
    // API_ORIGIN: where the web reaches the API on the server (default http://127.0.0.1:3001).
    apiOrigin: (envText('API_ORIGIN') ?? 'http://127.0.0.1:3001').replace(/\/+$/, ''),
  };
}

/** Read at call time so tests and a restarted server see the current environment. */
export function siteConfig(): SiteConfig {
  return readSiteConfig();
}

/** Whether a link leaves the site (then it opens in a new tab). */
export function isExternalUrl(url: string): boolean {
  return /^https?:\/\//.test(url);
}
