import type { ValidationIssue } from '../../shared/errors.js';
import { hasNul, NUL_MESSAGE } from '../../shared/text.js';
import { ID_AT_PROVIDER_MAX_LENGTH, PRICE_CATEGORY_LABEL_MAX_LENGTH, PRICE_MAX_CENTS } from '../limits.js';

/**
 * The documented constraints of a price category's fields, checked again in the domain so
 * that /graphql callers meet the same 422 as the REST contract's schemas give.
 */
export function priceCategoryFieldIssues(
  fields: { label?: string | null; price?: number | null; idAtProvider?: string | null },
  loc: string[],
  mode: 'create' | 'edit',
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const { label, price, idAtProvider } = fields;
  if (label === null || (mode === 'create' && label === undefined)) {
    issues.push({
      loc: [...loc, 'label'],
      msg: label === null ? 'The label may not be null' : 'Field required',
      type: label === null ? 'string_type' : 'missing',
    });
  } else if (label !== undefined && (label.length < 1 || label.length > PRICE_CATEGORY_LABEL_MAX_LENGTH)) {
    issues.push({
      loc: [...loc, 'label'],
      msg: `The label has 1 to ${PRICE_CATEGORY_LABEL_MAX_LENGTH} characters`,
      type: label.length < 1 ? 'string_too_short' : 'string_too_long',
      ctx: { limit_value: label.length < 1 ? 1 : PRICE_CATEGORY_LABEL_MAX_LENGTH },
    });
  }
  if (price === null || (mode === 'create' && price === undefined)) {
    issues.push({
      loc: [...loc, 'price'],
      msg: price === null ? 'The price may not be null' : 'Field required',
      type: price === null ? 'int_type' : 'missing',
    });
  } else if (price !== undefined && (!Number.isInteger(price) || price < 0 || price > PRICE_MAX_CENTS)) {
    issues.push({
      loc: [...loc, 'price'],
      msg: `The price is a whole number of cents from 0 to ${PRICE_MAX_CENTS}`,
      type: price < 0 ? 'greater_than_equal' : 'less_than_equal',
      ctx: { limit_value: price < 0 ? 0 : PRICE_MAX_CENTS },
    });
  }
  for (const [field, text] of [
    ['label', label],
    ['idAtProvider', idAtProvider],
  ] as const) {
    if (text != null && hasNul(text))
      issues.push({ loc: [...loc, field], msg: NUL_MESSAGE, type: 'string_pattern_mismatch' });
  }
  if (idAtProvider != null && idAtProvider.length > ID_AT_PROVIDER_MAX_LENGTH) {
    issues.push({
      loc: [...loc, 'idAtProvider'],
      msg: `At most ${ID_AT_PROVIDER_MAX_LENGTH} characters`,
      type: 'string_too_long',
      ctx: { limit_value: ID_AT_PROVIDER_MAX_LENGTH },
    });
  }
  return issues;
}
