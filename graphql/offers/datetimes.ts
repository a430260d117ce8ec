import { ValidationFailedError } from '../shared/errors.js';

/** ISO 8601 with a timezone (Z or an offset): naive datetimes are refused, never guessed. */
const awareDatetime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

export function parseAwareDatetime(value: string, loc: string[]): Date {
  const date = awareDatetime.test(value) ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) {
    throw new ValidationFailedError([
      { loc, msg: 'Input should be a timezone-aware ISO 8601 datetime', type: 'timezone_aware' },
    ]);
  }
  return date;
}
