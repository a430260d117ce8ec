import { ValidationFailedError } from './errors.js';

/** Neither database stores NUL in text: such text is refused (422) rather than failing the query. */
export const NUL_MESSAGE = 'Text may not contain the NUL character (\\u0000)';

export function hasNul(value: string): boolean {
  return value.includes('\u0000');
}

/** A filter by identifiers at provider holding NUL could not be queried: 422, as the REST schema answers. */
export function refuseNulInIds(idsAtProvider: string[] | null | undefined): void {
  if (idsAtProvider?.some(hasNul)) {
    throw new ValidationFailedError([{ loc: ['idsAtProvider'], msg: NUL_MESSAGE, type: 'string_pattern_mismatch' }]);
  }
}
