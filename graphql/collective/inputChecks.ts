import { ID_MAX } from '../offers/limits.js';
import { ValidationFailedError, type ValidationIssue } from '../shared/errors.js';
import { hasNul, NUL_MESSAGE } from '../shared/text.js';
import type { CollectiveOfferInput } from './inputs.js';
import { COLLECTIVE_LIMITS as LIMITS, EMAIL_PATTERN, PHONE_PATTERN } from './limits.js';

/**
 * The shape rules of a collective offer's input, for callers of the graph that no REST schema
 * checked (/graphql): whatever passes fits the columns and the contract's limits (422 otherwise).
 */
export function checkCollectiveOfferInput(input: CollectiveOfferInput): void {
  const issues: ValidationIssue[] = [];
  const text = (loc: (string | number)[], value: string | null | undefined, max: number, pattern?: RegExp) => {
    if (value == null) return;
    if (hasNul(value)) issues.push({ loc, msg: NUL_MESSAGE, type: 'string_pattern_mismatch' });
    else if (value.length > max)
      issues.push({
        loc,
        msg: `String should have at most ${max} characters`,
        type: 'string_too_long',
        ctx: { max_length: max },
      });
    else if (pattern && !pattern.test(value))
      issues.push({ loc, msg: 'Input does not have the expected form', type: 'value_error' });
  };
  const list = (loc: string, values: readonly unknown[] | null | undefined, max: number = LIMITS.listItems) => {
    if (values == null) return;
    if (values.length === 0)
      issues.push({ loc: [loc], msg: 'List should have at least 1 item', type: 'too_short', ctx: { min_length: 1 } });
    if (values.length > max)
      issues.push({
        loc: [loc],
        msg: `List should have at most ${max} items`,
        type: 'too_long',
        ctx: { max_length: max },
      });
  };
  const integer = (loc: string, value: number | null | undefined, min: number) => {
    if (value != null && (value < min || value > ID_MAX)) {
      issues.push({ loc: [loc], msg: `Input should be between ${min} and ${ID_MAX}`, type: 'value_error' });
    }
  };
  text(['name'], input.name, LIMITS.name);
  if (input.name === '')
    issues.push({ loc: ['name'], msg: 'String should have at least 1 character', type: 'string_too_short' });
  text(['description'], input.description, LIMITS.description);
  text(['contactEmail'], input.contactEmail, LIMITS.email, EMAIL_PATTERN);
  text(['contactPhone'], input.contactPhone, LIMITS.phone, PHONE_PATTERN);
  text(['educationalPriceDetail'], input.educationalPriceDetail, LIMITS.priceDetail);
  text(['imageCredit'], input.imageCredit, LIMITS.imageCredit);
  text(['educationalInstitution'], input.educationalInstitution, LIMITS.institutionUai);
  text(['location', 'addressLabel'], input.location?.addressLabel, LIMITS.addressLabel);
  text(['location', 'comment'], input.location?.comment, LIMITS.locationComment);
  list('bookingEmails', input.bookingEmails);
  input.bookingEmails?.forEach((email, index) => text(['bookingEmails', index], email, LIMITS.email, EMAIL_PATTERN));
  list('formats', input.formats);
  list('domains', input.domains);
  list('students', input.students);
  input.students?.forEach((level, index) => text(['students', index], level, LIMITS.studentLevel));
  list(
    'interventionArea',
    input.interventionArea?.length === 0 ? null : input.interventionArea,
    LIMITS.interventionAreaItems,
  );
  input.interventionArea?.forEach((area, index) =>
    text(['interventionArea', index], area, LIMITS.interventionAreaItem),
  );
  integer('numberOfTickets', input.numberOfTickets, 1);
  integer('durationMinutes', input.durationMinutes, 0);
  if (input.totalPrice != null && (input.totalPrice < 0 || input.totalPrice > LIMITS.totalPriceEuros)) {
    issues.push({
      loc: ['totalPrice'],
      msg: `Input should be between 0 and ${LIMITS.totalPriceEuros}`,
      type: 'value_error',
    });
  }
  if (issues.length > 0) throw new ValidationFailedError(issues);
}

/** The same list without repeats, in first-seen order: a domain or a level named twice is one. */
export function distinct<T>(values: T[]): T[] {
  return [...new Set(values)];
}
