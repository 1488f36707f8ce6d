import { PRODUCT_IDS } from '@xcad/protocol';
import type { ProductId, TPayPackage, TPayProduct } from '@xcad/protocol';
import type { ProductMembershipRow } from '@/lib/auth/account-view';

// /personal-openvip.html (decision 0018): which product the page opens on and what buying does to the
// membership it already has. Pure, so it is tested here.

/** The editor: the product most people come to buy. */
const DEFAULT_OPENVIP_PRODUCT: ProductId = 211;

/** The product `?productid=` names when it is one of spec §6's six, else the editor. */
export function openVipProductOf(param: string | null): ProductId {
  const id = Number(param);
  return (PRODUCT_IDS as readonly number[]).includes(id) ? (id as ProductId) : DEFAULT_OPENVIP_PRODUCT;
}

/**
 * What paying does for this product, as the page explains it: a first purchase starts today, a
 * renewal extends from the current expiry (the API's rule), a lapsed one starts again today, and a
 * lifelong member has nothing to buy.
 */
export type PurchaseEffect = 'open' | 'renew' | 'restart' | 'lifelong';

export function purchaseEffectOf(row: Pick<ProductMembershipRow, 'level' | 'isLifelong'>): PurchaseEffect {
  if (row.level === 'premium') return row.isLifelong ? 'lifelong' : 'renew';
  return row.level === 'expired' ? 'restart' : 'open';
}

/** The product's catalogue entry when it sells packages for the PC software, else null. */
export function pcProductOf(products: readonly TPayProduct[], productid: number): TPayProduct | null {
  const product = products.find((candidate) => candidate.productid === productid);
  const isPc = (plan: TPayPackage) => plan.channel === 'pc';
  return product && product.packages.some(isPc) ? product : null;
}
