import { DATE_QUANTITY_MAX } from '../../graphql/offers/limits.js';
import { z } from '../zod.js';

export const UNLIMITED = 'unlimited';

/** Places or items: a whole number from `minimum`, or "unlimited". */
export function quantityInput(minimum: 0 | 1) {
  return z.union([z.int().min(minimum).max(DATE_QUANTITY_MAX), z.literal(UNLIMITED)], {
    error: `Input should be a whole number from ${minimum} to ${DATE_QUANTITY_MAX}, or "${UNLIMITED}"`,
  });
}

/** A quantity as answers show it: what is still on sale, or "unlimited". */
export const quantityOutput = z.union([z.int(), z.literal(UNLIMITED)]);
