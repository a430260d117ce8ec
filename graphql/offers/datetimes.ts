import { ValidationFailedError } from '../shared/errors.js';
import { awareDateTime } from '../shared/fieldRules.js';
import { issuesOf } from '../shared/validation.js';

/**
 * The moment a timezone-aware ISO 8601 datetime names. The inputs' rules have refused any
 * other text by then; should one slip through, it is the same 422.
 */
export function parseAwareDatetime(value: string, loc: string[]): Date {
  const parsed = awareDateTime.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ValidationFailedError(issuesOf(awareDateTime, value, loc));
}
