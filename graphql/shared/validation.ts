import type { z } from './zod.js';
import { ValidationFailedError, type ValidationIssue } from './errors.js';

/**
 * One validation policy: the domain owns every rule of an input, written once as a zod schema
 * beside the subgraph's inputs. The graph checks its arguments with them (see inputRules.ts),
 * and the REST facade builds its request schemas from the same ones, so both refuse the same
 * input with the same `{loc, msg, type, ctx}` entries.
 */

type ZodIssue = z.core.$ZodIssue;

function locOf(issue: ZodIssue): string[] {
  return issue.path.map((segment) => String(segment));
}

function sizeType(issue: Extract<ZodIssue, { code: 'too_big' | 'too_small' }>): string {
  const direction = issue.code === 'too_big' ? 'too_long' : 'too_short';
  switch (issue.origin) {
    case 'string':
      return `string_${direction}`;
    case 'array':
    case 'set':
      return direction === 'too_long' ? 'too_long' : 'too_short';
    default:
      if (issue.code === 'too_big') return issue.inclusive === false ? 'less_than' : 'less_than_equal';
      return issue.inclusive === false ? 'greater_than' : 'greater_than_equal';
  }
}

function typeOf(issue: ZodIssue, received: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      if (received === undefined) return 'missing';
      // zod names integers 'number' too: most numbers of this contract are integers (ids,
      // cents, quantities); the few decimals (coordinates) report their own type.
      if (issue.expected === 'int' || issue.expected === 'number') {
        return typeof received === 'string' ? 'int_parsing' : 'int_type';
      }
      return `${issue.expected}_type`;
    case 'too_big':
    case 'too_small':
      return sizeType(issue);
    case 'invalid_format':
      return issue.format === 'url'
        ? 'url_parsing'
        : issue.format === 'regex'
          ? 'string_pattern_mismatch'
          : `${issue.format}_parsing`;
    case 'invalid_value':
      return issue.values.length > 1 ? 'enum' : 'literal_error';
    case 'unrecognized_keys':
      return 'extra_forbidden';
    case 'invalid_union':
      return 'union_tag_invalid';
    case 'not_multiple_of':
      return 'multiple_of';
    case 'custom':
      return typeof issue.params?.type === 'string' ? issue.params.type : 'value_error';
    default:
      return 'value_error';
  }
}

function contextOf(issue: ZodIssue): Record<string, unknown> | undefined {
  switch (issue.code) {
    case 'too_big':
      return { limit_value: Number(issue.maximum) };
    case 'too_small':
      return { limit_value: Number(issue.minimum) };
    case 'invalid_value':
      return { expected: issue.values.map((value) => String(value)).join(', ') };
    case 'invalid_format':
      return issue.format === 'regex' && 'pattern' in issue ? { pattern: String(issue.pattern) } : undefined;
    default:
      return undefined;
  }
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let current = input;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

/**
 * zod issues as the contract's 422 entries: `{loc, msg, type, ctx?}` where `loc` is the
 * path inside the request part (`["dates", "1", "priceCategoryId"]`, `["limit"]`).
 * An unknown key is reported at its own path.
 */
export function toValidationIssues(error: z.ZodError, input: unknown): ValidationIssue[] {
  return error.issues.flatMap((issue): ValidationIssue[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        loc: [...locOf(issue), key],
        msg: 'Extra inputs are not permitted',
        type: 'extra_forbidden',
      }));
    }
    const received = valueAt(input, issue.path);
    // An absent value fails a plain type and a union alike: either way the field is missing.
    if (received === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_union')) {
      return [{ loc: locOf(issue), msg: 'Field required', type: 'missing' }];
    }
    const ctx = contextOf(issue);
    return [{ loc: locOf(issue), msg: issue.message, type: typeOf(issue, received), ...(ctx ? { ctx } : {}) }];
  });
}

/** What a rule finds wrong with a value, each entry's `loc` under `at`. */
export function issuesOf(rule: z.ZodType, value: unknown, at: readonly string[] = []): ValidationIssue[] {
  const result = rule.safeParse(value);
  if (result.success) return [];
  return toValidationIssues(result.error, value).map((issue) => ({ ...issue, loc: [...at, ...issue.loc] }));
}

/** Refuses a value that breaks its rule: 422 (VALIDATION_FAILED), each entry's `loc` under `at`. */
export function checkInput(rule: z.ZodType, value: unknown, at: readonly string[] = []): void {
  const issues = issuesOf(rule, value, at);
  if (issues.length > 0) throw new ValidationFailedError(issues);
}
