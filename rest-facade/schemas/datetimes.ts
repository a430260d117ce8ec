import { awareDateTime } from '../../graphql/shared/fieldRules.js';
import { isStorable } from '../../platform/time/moments.js';

export { isStorable };

/**
 * A datetime in a request: ISO 8601 and timezone-aware, read as the moment it names (and so
 * stored in UTC). The rule is the domain's; this describes it.
 */
export const awareDateTimeInput = awareDateTime.openapi({
  format: 'date-time',
  description: 'ISO 8601 with a timezone (Z or an offset); stored in UTC.',
  example: '2027-03-14T20:30:00+01:00',
});
