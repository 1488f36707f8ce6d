import type { TPayProduct } from '@xcad/protocol';
import { describe, expect, it } from 'vitest';
import { openVipProductOf, pcProductOf, purchaseEffectOf } from './open-vip';

function product(productid: number, channels: readonly ('pc' | 'app')[]): TPayProduct {
  return {
    productid,
    name: `product ${productid}`,
    packages: channels.map((channel, index) => ({
      id: `p${productid}-${index}`,
      realId: productid * 10 + index,
      productid,
      name: '12',
      price: 68,
      priceOri: 128,
      paypack: 'year',
      months: 12,
      channel,
      recommended: index === 0,
    })),
  };
}

describe('open membership page', () => {
  it('opens on the product the link names, else on the editor', () => {
    expect(openVipProductOf('202')).toBe(202);
    expect(openVipProductOf('203')).toBe(203);
    expect(openVipProductOf(null)).toBe(211);
    expect(openVipProductOf('999')).toBe(211);
    expect(openVipProductOf('abc')).toBe(211);
    expect(openVipProductOf('')).toBe(211);
  });

  it('tells a member that buying extends the current expiry, and a lifelong member that there is nothing to buy', () => {
    expect(purchaseEffectOf({ level: 'premium', isLifelong: false })).toBe('renew');
    expect(purchaseEffectOf({ level: 'premium', isLifelong: true })).toBe('lifelong');
    expect(purchaseEffectOf({ level: 'expired', isLifelong: false })).toBe('restart');
    expect(purchaseEffectOf({ level: 'ordinary', isLifelong: false })).toBe('open');
  });

  it('sells a product here only when it has packages for the PC software', () => {
    const products = [product(211, ['pc']), product(202, ['app']), product(204, [])];
    expect(pcProductOf(products, 211)?.productid).toBe(211);
    expect(pcProductOf(products, 202)).toBeNull();
    expect(pcProductOf(products, 204)).toBeNull();
    expect(pcProductOf(products, 203)).toBeNull();
  });
});
