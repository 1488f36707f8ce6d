import type { TPayPackage, TPayProduct } from '@xcad/protocol';
import { describe, expect, it } from 'vitest';
import { bundleItemsOf, lowestPrice, planNoteOf, plansOf, preselectedPlan, productsById, savingOf } from './plans';

function pack(realId: number, extra: Partial<TPayPackage> = {}): TPayPackage {
  return {
    id: `p-${realId}`,
    realId,
    productid: 202,
    name: '12个月会员',
    price: 68,
    priceOri: 128,
    paypack: 'year',
    months: 12,
    channel: 'pc',
    recommended: false,
    ...extra,
  };
}

const converter: TPayProduct = {
  productid: 202,
  name: '迅捷CAD转换器',
  packages: [
    pack(2021, { name: '终身会员', price: 98, priceOri: 198, paypack: 'lifetime', months: null, recommended: true }),
    pack(2022),
    pack(2023, { name: '1个月会员', price: 38, priceOri: 58, paypack: 'month', months: 1 }),
    pack(2024, { name: '终身会员', price: 68, priceOri: 128, paypack: 'lifetime', months: null, channel: 'app' }),
    pack(2025, { price: 38, priceOri: 68, channel: 'app', recommended: true }),
  ],
};

const editor: TPayProduct = {
  productid: 211,
  name: '迅捷CAD编辑器',
  packages: [
    pack(305, { productid: 211, name: '终身会员', price: 88, priceOri: 198, paypack: 'lifetime', months: null }),
    pack(304, { productid: 211 }),
  ],
};

describe('the packages a buy page sells', () => {
  it('keeps the PC packages on /buy/cadconverter.html and the app ones on /buy/cadconverterapp.html', () => {
    expect(plansOf(converter).map((plan) => plan.realId)).toEqual([2021, 2022, 2023]);
    expect(plansOf(converter, 'app').map((plan) => plan.realId)).toEqual([2024, 2025]);
  });

  it('preselects the recommended package, else the first, else none', () => {
    expect(preselectedPlan(plansOf(converter, 'app'))?.realId).toBe(2025);
    expect(preselectedPlan(editor.packages)?.realId).toBe(305);
    expect(preselectedPlan([])).toBeNull();
  });

  it('shows the cheapest price of a product card', () => {
    expect(lowestPrice(plansOf(converter))).toBe(38);
    expect(lowestPrice([])).toBeNull();
  });
});

describe('the line under a price', () => {
  it('says lifetime for a lifetime package, monthly for one month, and a month’s price otherwise', () => {
    expect(planNoteOf({ paypack: 'lifetime', months: null, price: 88 })).toEqual({ kind: 'lifetime' });
    expect(planNoteOf({ paypack: 'month', months: 1, price: 48 })).toEqual({ kind: 'monthly' });
    expect(planNoteOf({ paypack: 'year', months: 12, price: 68 })).toEqual({ kind: 'perMonth', yuan: 5.67 });
    expect(planNoteOf({ paypack: 'quarter', months: 3, price: 68 })).toEqual({ kind: 'perMonth', yuan: 22.67 });
  });

  it('computes the saving to the fen, never negative', () => {
    expect(savingOf({ price: 88, priceOri: 198 })).toBe(110);
    expect(savingOf({ price: 12.9, priceOri: 19.9 })).toBe(7);
    expect(savingOf({ price: 68, priceOri: 68 })).toBe(0);
    expect(savingOf({ price: 70, priceOri: 68 })).toBe(0);
  });
});

describe('bundles', () => {
  it('names the packages a bundle combines, in its order, skipping ids the catalogue lacks', () => {
    expect(bundleItemsOf({ packages: [305, 2022, 9999] }, [converter, editor])).toEqual([
      { realId: 305, productid: 211, productName: '迅捷CAD编辑器', packageName: '终身会员' },
      { realId: 2022, productid: 202, productName: '迅捷CAD转换器', packageName: '12个月会员' },
    ]);
  });

  it('finds the products of a page in the page’s order', () => {
    expect(productsById([converter, editor], [211, 202, 214]).map((product) => product.productid)).toEqual([211, 202]);
  });
});
