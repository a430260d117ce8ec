import { quantityRule, UNLIMITED } from '../../graphql/offers/fieldRules.js';
import { z } from '../zod.js';

export { UNLIMITED };

/** Places or items: a whole number from `minimum`, or "unlimited" (the domain's rule). */
export const quantityInput = quantityRule;

/** A quantity as answers show it: what is still on sale, or "unlimited". */
export const quantityOutput = z.union([z.int(), z.literal(UNLIMITED)]);
