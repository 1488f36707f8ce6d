import type { Executor } from '../executor';
import type { PayChannel, PayPack } from '../tables/pay.table';
import type { Seed } from './seed';

// Decision 0018: the catalogue the buy pages sell. The editor's three packages and realIds are spec
// §9's (88 / 305, 68 / 304, 48 / 532); the rest and the bundles (FACTS: editor + a year of the
// converter 128, editor + the converter for life 156) are ours. Prices in fen.

interface PackageSeed {
  realId: number;
  code: string;
  paypack: PayPack;
  priceFen: number;
  priceOriFen: number;
  channel?: PayChannel;
  recommended?: boolean;
}

interface ProductSeed {
  productId: number;
  name: string;
  packages: PackageSeed[];
}

const PACK_NAMES: Record<PayPack, string> = { month: '1个月会员', quarter: '3个月会员', year: '12个月会员', lifetime: '终身会员' };
const PACK_MONTHS: Record<PayPack, number | null> = { month: 1, quarter: 3, year: 12, lifetime: null };

export const PAY_CATALOGUE: readonly ProductSeed[] = [
  {
    productId: 211,
    name: '迅捷CAD编辑器',
    packages: [
      { realId: 305, code: 'editor-lifetime', paypack: 'lifetime', priceFen: 8800, priceOriFen: 19800, recommended: true },
      { realId: 304, code: 'editor-year', paypack: 'year', priceFen: 6800, priceOriFen: 12800 },
      { realId: 532, code: 'editor-month', paypack: 'month', priceFen: 4800, priceOriFen: 6800 },
    ],
  },
  {
    productId: 214,
    name: '迅捷CAD编辑器专业版',
    packages: [
      { realId: 1401, code: 'editorpro-lifetime', paypack: 'lifetime', priceFen: 15800, priceOriFen: 39800 },
      { realId: 1402, code: 'editorpro-year', paypack: 'year', priceFen: 11800, priceOriFen: 19800, recommended: true },
      { realId: 1403, code: 'editorpro-quarter', paypack: 'quarter', priceFen: 6800, priceOriFen: 9800 },
    ],
  },
  {
    productId: 202,
    name: '迅捷CAD转换器',
    packages: [
      { realId: 2021, code: 'converter-lifetime', paypack: 'lifetime', priceFen: 9800, priceOriFen: 19800, recommended: true },
      { realId: 2022, code: 'converter-year', paypack: 'year', priceFen: 6800, priceOriFen: 12800 },
      { realId: 2023, code: 'converter-month', paypack: 'month', priceFen: 3800, priceOriFen: 5800 },
      { realId: 2024, code: 'converterapp-lifetime', paypack: 'lifetime', priceFen: 6800, priceOriFen: 12800, channel: 'app' },
      { realId: 2025, code: 'converterapp-year', paypack: 'year', priceFen: 3800, priceOriFen: 6800, channel: 'app', recommended: true },
      { realId: 2026, code: 'converterapp-month', paypack: 'month', priceFen: 1800, priceOriFen: 3000, channel: 'app' },
    ],
  },
  {
    productId: 297,
    name: '迅捷CAD教程',
    packages: [
      { realId: 2971, code: 'course-lifetime', paypack: 'lifetime', priceFen: 19800, priceOriFen: 39800 },
      { realId: 2972, code: 'course-year', paypack: 'year', priceFen: 9800, priceOriFen: 19800, recommended: true },
      { realId: 2973, code: 'course-quarter', paypack: 'quarter', priceFen: 4800, priceOriFen: 8800 },
    ],
  },
  {
    productId: 204,
    name: '迅捷CAD工具箱',
    packages: [
      { realId: 2041, code: 'toolbox-lifetime', paypack: 'lifetime', priceFen: 8800, priceOriFen: 16800, recommended: true },
      { realId: 2042, code: 'toolbox-year', paypack: 'year', priceFen: 5800, priceOriFen: 9800 },
      { realId: 2043, code: 'toolbox-month', paypack: 'month', priceFen: 2800, priceOriFen: 4800 },
    ],
  },
  {
    productId: 203,
    name: '迅捷CAD图库',
    packages: [
      { realId: 2031, code: 'library-lifetime', paypack: 'lifetime', priceFen: 12800, priceOriFen: 29800 },
      { realId: 2032, code: 'library-year', paypack: 'year', priceFen: 6800, priceOriFen: 12800, recommended: true },
      { realId: 2033, code: 'library-month', paypack: 'month', priceFen: 2800, priceOriFen: 4800 },
    ],
  },
];

export const PAY_BUNDLES: readonly {
  realId: number;
  code: string;
  name: string;
  priceFen: number;
  priceOriFen: number;
  packages: number[];
}[] = [
  {
    realId: 9001,
    code: 'editor-lifetime-converter-year',
    name: '编辑器终身 + 转换器12个月',
    priceFen: 12800,
    priceOriFen: 15600,
    packages: [305, 2022],
  },
  {
    realId: 9002,
    code: 'editor-converter-lifetime',
    name: '编辑器终身 + 转换器终身',
    priceFen: 15600,
    priceOriFen: 18600,
    packages: [305, 2021],
  },
  {
    realId: 9003,
    code: 'design-suite-lifetime',
    name: '设计全家桶（编辑器、工具箱、图库终身）',
    priceFen: 22800,
    priceOriFen: 30400,
    packages: [305, 2041, 2031],
  },
];

/** Inserts whatever of the catalogue is missing; prices an operator changed are left alone. */
export async function seedPayCatalogue(db: Executor): Promise<void> {
  for (const [productIndex, product] of PAY_CATALOGUE.entries()) {
    await db
      .insertInto('pay_product')
      .values({ product_id: product.productId, name: product.name, sort: productIndex })
      .onConflict((conflict) => conflict.column('product_id').doNothing())
      .execute();
    for (const [index, pack] of product.packages.entries()) {
      await db
        .insertInto('pay_package')
        .values({
          real_id: pack.realId,
          code: pack.code,
          product_id: product.productId,
          name: PACK_NAMES[pack.paypack],
          paypack: pack.paypack,
          months: PACK_MONTHS[pack.paypack],
          price_fen: pack.priceFen,
          price_ori_fen: pack.priceOriFen,
          channel: pack.channel ?? 'pc',
          recommended: pack.recommended ? 1 : 0,
          sort: index,
        })
        .onConflict((conflict) => conflict.column('real_id').doNothing())
        .execute();
    }
  }
  for (const [index, bundle] of PAY_BUNDLES.entries()) {
    await db
      .insertInto('pay_bundle')
      .values({
        real_id: bundle.realId,
        code: bundle.code,
        name: bundle.name,
        price_fen: bundle.priceFen,
        price_ori_fen: bundle.priceOriFen,
        sort: index,
      })
      .onConflict((conflict) => conflict.column('real_id').doNothing())
      .execute();
    for (const packageRealId of bundle.packages) {
      await db
        .insertInto('pay_bundle_item')
        .values({ bundle_real_id: bundle.realId, package_real_id: packageRealId })
        .onConflict((conflict) => conflict.columns(['bundle_real_id', 'package_real_id']).doNothing())
        .execute();
    }
  }
}

export const payCatalogueSeed: Seed = { name: 'pay-catalogue', run: seedPayCatalogue };
