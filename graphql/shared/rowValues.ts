/** Values of raw rows, as the two drivers give them. */

/** The PostgreSQL driver gives Date objects; libSQL epoch milliseconds, as numbers or text. */
export function asDate(value: string | number | Date): Date {
  if (value instanceof Date) return value;
  return new Date(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value);
}

export function asDateOrNull(value: string | number | Date | null | undefined): Date | null {
  return value == null ? null : asDate(value);
}
