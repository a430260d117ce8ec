import type { EntityManager } from '@mikro-orm/core';
import { CatalogueProduct } from './CatalogueProduct.js';
import { isValidEan } from './ean.js';
import { type EanRejection, eanRejectionOf } from './eanRule.js';

/** The catalogue's products among these EANs, in one query; EANs with a wrong check digit are never looked up. */
export async function catalogueProductsByEan(
  em: EntityManager,
  eans: readonly string[],
): Promise<Map<string, CatalogueProduct>> {
  const wanted = [...new Set(eans.filter(isValidEan))];
  if (wanted.length === 0) return new Map();
  const products = await em.find(CatalogueProduct, { ean: { $in: wanted } }, { disableIdentityMap: true });
  return new Map(products.map((product) => [product.ean, product]));
}

export interface EanAvailability {
  available: string[];
  rejected: Record<EanRejection, string[]>;
}

/** Sorts EANs into those that can be sold and those rejected, by reason; each EAN once, in the order given. */
export async function eanAvailability(em: EntityManager, eans: readonly string[]): Promise<EanAvailability> {
  const products = await catalogueProductsByEan(em, eans);
  const answer: EanAvailability = {
    available: [],
    rejected: { notFound: [], subcategoryNotAllowed: [], notCompliantWithCgu: [] },
  };
  for (const ean of new Set(eans)) {
    const rejection = eanRejectionOf(products.get(ean));
    if (rejection) answer.rejected[rejection].push(ean);
    else answer.available.push(ean);
  }
  return answer;
}
