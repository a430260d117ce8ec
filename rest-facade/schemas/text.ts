import { hasNul, NUL_MESSAGE } from '../../graphql/shared/text.js';
import type { z } from '../zod.js';

export { hasNul, NUL_MESSAGE };

/**
 * Refuses text holding NUL (422): neither database can store it, so it would otherwise
 * fail the query. A refinement, so the documented shape of the field does not change.
 */
export function withoutNul<T extends z.ZodString>(schema: T): T {
  return schema.refine((value) => !hasNul(value), {
    message: NUL_MESSAGE,
    params: { type: 'string_pattern_mismatch' },
  });
}
