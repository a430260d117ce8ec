import { quantityRule, UNLIMITED } from '../../graphql/offers/fieldRules.js';
import { z } from '../zod.js';

export { UNLIMITED };

/** Places or items: a whole number from `minimum`, or "unlimited" (the domain's rule). */
export const quantityInput = quantityRule;

/** A quantity as answers show it: the stored total (booked ones included), or "unlimited". */
export const quantityOutput = z.union([z.int(), z.literal(UNLIMITED)]);

/** The stored total as answered: null (no limit) reads "unlimited". */
export function answeredQuantity(stored: number | null): number | typeof UNLIMITED {
  return stored ?? UNLIMITED;
}
