// Links of the home page (components/home), labelled by messages `home.json`.

export const HOME_SLIDES = [
  { key: 'editor', primary: '/download.html', secondary: '/buy/cadeditor.html' },
  { key: 'converter', primary: '/download-converter.html', secondary: '/buy/cadconverter.html' },
  { key: 'online', primary: '/tools/cad2pdf', secondary: '/kantu' },
  { key: 'vip', primary: '/buy.html', secondary: '/buy/cadeditor.html' },
] as const;

export type HomeSlideKey = (typeof HOME_SLIDES)[number]['key'];

/** A product card's two actions; `label` is a key of `home.products`. */
interface ProductAction {
  readonly label: 'download' | 'buy' | 'learn' | 'browse' | 'online';
  readonly href: string;
}

export interface HomeProduct {
  readonly key: 'editor' | 'converter' | 'viewer' | 'toolbox' | 'course' | 'library';
  readonly primary: ProductAction;
  readonly secondary: ProductAction;
  readonly isPopular: boolean;
}

export const HOME_PRODUCTS: readonly HomeProduct[] = [
  {
    key: 'editor',
    primary: { label: 'download', href: '/download.html' },
    secondary: { label: 'buy', href: '/buy/cadeditor.html' },
    isPopular: true,
  },
  {
    key: 'converter',
    primary: { label: 'download', href: '/download-converter.html' },
    secondary: { label: 'buy', href: '/buy/cadconverter.html' },
    isPopular: true,
  },
  {
    key: 'viewer',
    primary: { label: 'download', href: '/download-lookchart.html' },
    secondary: { label: 'online', href: '/kantu' },
    isPopular: false,
  },
  {
    key: 'toolbox',
    primary: { label: 'download', href: '/download-holdall.html' },
    secondary: { label: 'buy', href: '/buy/cadholdall.html' },
    isPopular: false,
  },
  {
    key: 'course',
    primary: { label: 'learn', href: '/video.html' },
    secondary: { label: 'buy', href: '/buy/cadresources.html' },
    isPopular: false,
  },
  {
    key: 'library',
    primary: { label: 'browse', href: '/dwglist' },
    secondary: { label: 'buy', href: '/buy/cadtuku.html' },
    isPopular: false,
  },
];

/** The home page shows the newest daily pictures from the content API, this many. */
export const HOME_DAILYPIC_COUNT = 4;

export { DAILYPIC_INDEX_PATH } from '@/lib/content/dailypics';

/** Shown instead of the guide list when the content API cannot be reached. */
export const HOME_GUIDE_FALLBACK_LINKS = [
  { key: 'basics', href: '/basics.html' },
  { key: 'master', href: '/master.html' },
  { key: 'video', href: '/video.html' },
  { key: 'help', href: '/help.html' },
] as const;
