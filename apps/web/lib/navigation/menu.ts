import type { ProductKey } from '@xcad/protocol';
import { FEEDBACK_PUBLIC_PATH } from '../i18n/negotiate';

// spec §2 "Desktop header menu": one source for the desktop header and the mobile menu.
// Labels and descriptions live in messages `header.json` under `menu.<key>` and
// `menu.<key>.items.<item>`; this module holds only keys, paths and icons.

export const MENU_KEYS = ['home', 'buy', 'download', 'help', 'dailypic', 'tutorials', 'tools', 'services'] as const;
export type MenuKey = (typeof MENU_KEYS)[number];

export type MenuIconName =
  | 'editor'
  | 'converter'
  | 'viewer'
  | 'toolbox'
  | 'course'
  | 'library'
  | 'mobile'
  | 'basics'
  | 'master'
  | 'cad2pdf'
  | 'cad2jpg'
  | 'cad2ver'
  | 'pdf2cad'
  | 'invoice'
  | 'feedback'
  | 'complaint';

interface SubMenuItem {
  /** Message key under `menu.<parent>.items`. */
  readonly key: string;
  /** Public, unprefixed path. */
  readonly href: string;
  readonly icon: MenuIconName;
}

export interface MenuItem {
  readonly key: MenuKey;
  /** Where the top entry itself leads. */
  readonly href: string;
  readonly children: readonly SubMenuItem[];
}

export const MENU: readonly MenuItem[] = [
  { key: 'home', href: '/', children: [] },
  {
    key: 'buy',
    href: '/buy.html',
    children: [
      { key: 'editor', href: '/buy/cadeditor.html', icon: 'editor' },
      { key: 'converter', href: '/buy/cadconverter.html', icon: 'converter' },
      { key: 'toolbox', href: '/buy/cadholdall.html', icon: 'toolbox' },
      { key: 'course', href: '/buy/cadresources.html', icon: 'course' },
      { key: 'library', href: '/buy/cadtuku.html', icon: 'library' },
    ],
  },
  {
    key: 'download',
    href: '/download.html',
    children: [
      { key: 'editor', href: '/download.html', icon: 'editor' },
      { key: 'converter', href: '/download-converter.html', icon: 'converter' },
      { key: 'viewer', href: '/download-lookchart.html', icon: 'viewer' },
      { key: 'toolbox', href: '/download-holdall.html', icon: 'toolbox' },
      { key: 'mobileConverter', href: '/download-converter-app.html', icon: 'mobile' },
    ],
  },
  { key: 'help', href: '/help.html', children: [] },
  { key: 'dailypic', href: '/dailypic.html', children: [] },
  {
    key: 'tutorials',
    href: '/basics.html',
    children: [
      { key: 'basics', href: '/basics.html', icon: 'basics' },
      { key: 'master', href: '/master.html', icon: 'master' },
    ],
  },
  {
    key: 'tools',
    href: '/tools.html',
    children: [
      { key: 'cad2pdf', href: '/tools/cad2pdf', icon: 'cad2pdf' },
      { key: 'cad2jpg', href: '/tools/cad2jpg', icon: 'cad2jpg' },
      { key: 'cad2ver', href: '/tools/cad2ver', icon: 'cad2ver' },
      { key: 'pdf2cad', href: '/tools/pdf2cad', icon: 'pdf2cad' },
      { key: 'viewer', href: '/kantu', icon: 'viewer' },
    ],
  },
  {
    key: 'services',
    href: '/invoice.html',
    children: [
      { key: 'invoice', href: '/invoice.html', icon: 'invoice' },
      { key: 'feedback', href: FEEDBACK_PUBLIC_PATH, icon: 'feedback' },
      { key: 'complaint', href: '/complaint.html', icon: 'complaint' },
    ],
  },
];

/** spec §2 "User drop-down": the signed-in user's links, labelled by messages `header.user.<key>`. */
export const USER_MENU_LINKS = [
  { key: 'personal', href: '/personal.html' },
  { key: 'orders', href: '/personal-buy.html' },
  { key: 'openVip', href: '/personal-openvip.html' },
] as const;

/** Mobile sign-in page (spec §2 routes, "Mobile header"). */
export const MOBILE_LOGIN_PATH = '/loginPhone';

/** The mobile sign-in page, returning to `returnPath` (a site path) after a successful login. */
export function mobileLoginHref(returnPath: string): string {
  return `${MOBILE_LOGIN_PATH}?${new URLSearchParams({ redirect: returnPath })}`;
}

/** Where a signed-in visitor's account icon leads in the mobile header. */
export const PERSONAL_PATH = '/personal.html';

/** Pages of the personal centre (spec §2): per-user, so signed-out visitors get the sign-in gate there. */
export function isPersonalPath(path: string): boolean {
  return /^\/personal(?:-[a-z]+)?\.html$/.test(path);
}

/**
 * The buy page of each product of spec §6 (the '开通会员' links of the personal centre). The
 * editor pro has no page of its own in spec §2: it is sold on the editor's.
 */
export const PRODUCT_BUY_PATHS: Readonly<Record<ProductKey, string>> = {
  bianjiqi: '/buy/cadeditor.html',
  bianjiqipro: '/buy/cadeditor.html',
  zhuanhuanqi: '/buy/cadconverter.html',
  jiaocheng: '/buy/cadresources.html',
  gongjuxiang: '/buy/cadholdall.html',
  tuku: '/buy/cadtuku.html',
};
