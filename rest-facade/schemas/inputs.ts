import { decimal, ID_MAX, id } from '../../graphql/shared/fieldRules.js';
import { z } from '../zod.js';

export { decimal, id };

/**
 * Path and query values arrive as text. These read them as the contract's numbers: an empty
 * value counts as absent (so a default applies), and text that is not a number is reported as
 * `int_parsing` / `float_parsing` rather than silently becoming 0 or NaN.
 */
function numericInput<T extends z.ZodType>(pattern: RegExp, type: 'int_parsing' | 'float_parsing', schema: T) {
  const message =
    type === 'int_parsing'
      ? 'Input should be a valid integer, unable to parse string as an integer'
      : 'Input should be a valid number, unable to parse string as a number';
  return z.preprocess((value, context) => {
    if (typeof value !== 'string') return value;
    const text = value.trim();
    if (text === '') return undefined;
    if (!pattern.test(text)) {
      context.addIssue({ code: 'custom', message, params: { type }, input: value });
      return z.NEVER;
    }
    return Number(text);
  }, schema);
}

export function integerInput<T extends z.ZodType>(schema: T) {
  return numericInput(/^[-+]?\d+$/, 'int_parsing', schema);
}

export function numberInput<T extends z.ZodType>(schema: T) {
  return numericInput(/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/, 'float_parsing', schema);
}

/** An id in a path: a positive 32-bit integer. */
export const idInPath = integerInput(z.int().min(1).max(ID_MAX));

/** An id in a query string, optional. */
export const idInQuery = () => integerInput(id().optional());

/** The items of a comma-separated list in a query string, trimmed, the empty ones left out. */
export function commaSeparated(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
