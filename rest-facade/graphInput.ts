/**
 * A parsed body as the graph takes it: the schemas parse datetimes into Dates, the graph's
 * inputs take them as ISO 8601 text in UTC.
 */
export function datesAsText<T>(value: T): T {
  if (value instanceof Date) return value.toISOString() as T;
  if (Array.isArray(value)) return value.map(datesAsText) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, datesAsText(field)])) as T;
  }
  return value;
}
