import type { TPayBundle, TPayPackage, TPayProduct } from '@xcad/protocol';

// The buy pages' reading of the catalogue (decision 0018): which packages a page sells, which one it
// preselects, the small line under each price, and what a bundle contains. Prices are yuan.

export type PayChannel = TPayPackage['channel'];

/** The packages one buy page sells: the product's packages of that channel, in catalogue order. */
export function plansOf(product: TPayProduct, channel: PayChannel = 'pc'): TPayPackage[] {
  return product.packages.filter((plan) => plan.channel === channel);
}

/** The package selected when the page opens: the recommended one, else the first. */
export function preselectedPlan(plans: readonly TPayPackage[]): TPayPackage | null {
  return plans.find((plan) => plan.recommended) ?? plans[0] ?? null;
}

/** Yuan rounded to the fen (floating point never shows as ¥5.669999). */
function roundFen(yuan: number): number {
  return Math.round(yuan * 100) / 100;
}

/**
 * The line under a price: a lifetime package is bought once; a one-month package is the flexible
 * choice; longer ones show what a month comes to.
 */
export type PlanNote = { kind: 'lifetime' } | { kind: 'monthly' } | { kind: 'perMonth'; yuan: number };

export function planNoteOf(plan: Pick<TPayPackage, 'price' | 'months' | 'paypack'>): PlanNote {
  if (plan.paypack === 'lifetime' || plan.months === null || plan.months <= 0) return { kind: 'lifetime' };
  if (plan.months === 1) return { kind: 'monthly' };
  return { kind: 'perMonth', yuan: roundFen(plan.price / plan.months) };
}

/** What the package saves against its crossed-out price; 0 when it is not cheaper. */
export function savingOf(plan: Pick<TPayPackage, 'price' | 'priceOri'>): number {
  return Math.max(0, roundFen(plan.priceOri - plan.price));
}

/** The 'from ¥x' of a product card: the cheapest package, null when there is none. */
export function lowestPrice(plans: readonly Pick<TPayPackage, 'price'>[]): number | null {
  return plans.reduce<number | null>((lowest, plan) => (lowest === null || plan.price < lowest ? plan.price : lowest), null);
}

export interface BundleItem {
  readonly realId: number;
  readonly productid: number;
  readonly productName: string;
  readonly packageName: string;
}

/** The packages a bundle combines, named from the catalogue; ids the catalogue lacks are left out. */
export function bundleItemsOf(bundle: Pick<TPayBundle, 'packages'>, products: readonly TPayProduct[]): BundleItem[] {
  const byRealId = new Map(products.flatMap((product) => product.packages.map((plan) => [plan.realId, { product, plan }] as const)));
  return bundle.packages.flatMap((realId) => {
    const found = byRealId.get(realId);
    if (!found) return [];
    return [{ realId, productid: found.product.productid, productName: found.product.name, packageName: found.plan.name }];
  });
}

/** The products of the catalogue with the given ids, in that order; missing ones are skipped. */
export function productsById(products: readonly TPayProduct[], ids: readonly number[]): TPayProduct[] {
  return ids.flatMap((id) => products.filter((product) => product.productid === id));
}
