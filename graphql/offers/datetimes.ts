import { type ValidationIssue, ValidationFailedError } from '../shared/errors.js';
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

/** Why an optional datetime given as text is refused: not timezone-aware, or not ahead of `now`. */
export function futureDatetimeIssues(value: string | null | undefined, loc: string[], now: Date): ValidationIssue[] {
  if (value == null) return [];
  try {
    if (parseAwareDatetime(value, loc).getTime() > now.getTime()) return [];
    return [{ loc, msg: 'The datetime must be in the future', type: 'datetime_future' }];
  } catch (error) {
    if (error instanceof ValidationFailedError) return error.issues;
    throw error;
  }
}
