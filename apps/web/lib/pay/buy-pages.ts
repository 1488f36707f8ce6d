import type { MenuIconName } from '@/lib/navigation/menu';
import type { PayChannel } from './plans';

// The six /buy/*.html pages (spec §2) and what each sells (spec §6 product ids). Their copy
// (what the product does, member benefits) is in messages buy.json (server-only) under `products.{key}`.

export const BUY_ROUTES = [
  'buy-cadeditor',
  'buy-cadconverter',
  'buy-cadconverterapp',
  'buy-cadholdall',
  'buy-cadresources',
  'buy-cadtuku',
] as const;
export type BuyRoute = (typeof BUY_ROUTES)[number];

type BuyContentKey = 'editor' | 'converter' | 'converterapp' | 'toolbox' | 'course' | 'library';

export interface BuyPageDef {
  readonly route: BuyRoute;
  /** Key of the page's copy in buy.json `products`. */
  readonly key: BuyContentKey;
  /** The products it sells; two (标准版 / 专业版) are shown as tabs. */
  readonly productIds: readonly number[];
  readonly channel: PayChannel;
  readonly glyph: MenuIconName;
  /** Where to try the product first: its download page, or the free part of the content. */
  readonly tryPath: string;
}

export const BUY_PAGES: Readonly<Record<BuyRoute, BuyPageDef>> = {
  'buy-cadeditor': {
    route: 'buy-cadeditor',
    key: 'editor',
    productIds: [211, 214],
    channel: 'pc',
    glyph: 'editor',
    tryPath: '/download.html',
  },
  'buy-cadconverter': {
    route: 'buy-cadconverter',
    key: 'converter',
    productIds: [202],
    channel: 'pc',
    glyph: 'converter',
    tryPath: '/download-converter.html',
  },
  'buy-cadconverterapp': {
    route: 'buy-cadconverterapp',
    key: 'converterapp',
    productIds: [202],
    channel: 'app',
    glyph: 'mobile',
    tryPath: '/download-converter-app.html',
  },
  'buy-cadholdall': {
    route: 'buy-cadholdall',
    key: 'toolbox',
    productIds: [204],
    channel: 'pc',
    glyph: 'toolbox',
    tryPath: '/download-holdall.html',
  },
  'buy-cadresources': {
    route: 'buy-cadresources',
    key: 'course',
    productIds: [297],
    channel: 'pc',
    glyph: 'course',
    tryPath: '/video.html',
  },
  'buy-cadtuku': { route: 'buy-cadtuku', key: 'library', productIds: [203], channel: 'pc', glyph: 'library', tryPath: '/dwglist' },
};

/** The public path of a buy page (`buy-cadeditor` -> `/buy/cadeditor.html`). */
export function buyPathOf(route: BuyRoute): string {
  return `/buy/${route.slice('buy-'.length)}.html`;
}

export interface Feature {
  readonly title: string;
  readonly text: string;
}

/** A row of the member-benefits table; `yes` and `no` in a cell show as a tick and a dash. */
export interface BenefitRow {
  readonly item: string;
  readonly free: string;
  readonly member: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function listOf<T extends string>(raw: unknown, fields: readonly T[]): Record<T, string>[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((entry: unknown) => {
    if (!isRecord(entry)) return [];
    const row = {} as Record<T, string>;
    for (const field of fields) {
      const value = entry[field];
      if (typeof value !== 'string' || value.trim() === '') return [];
      row[field] = value;
    }
    return [row];
  });
}

/** The feature list of a page from its messages (`t.raw`); malformed entries are dropped. */
export function featuresOf(raw: unknown): Feature[] {
  return listOf(raw, ['title', 'text'] as const);
}

export function benefitRowsOf(raw: unknown): BenefitRow[] {
  return listOf(raw, ['item', 'free', 'member'] as const);
}

export type BenefitCell = { kind: 'yes' } | { kind: 'no' } | { kind: 'text'; text: string };

export function benefitCellOf(value: string): BenefitCell {
  if (value === 'yes') return { kind: 'yes' };
  if (value === 'no') return { kind: 'no' };
  return { kind: 'text', text: value };
}
