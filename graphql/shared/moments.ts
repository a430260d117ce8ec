/**
 * Years 1 to 9999 in UTC: an offset can push a written year out of them, and such a moment
 * has no plain ISO 8601 form to answer with (nor a place in PostgreSQL, for year 0).
 */
export function isStorable(moment: Date): boolean {
  const year = moment.getUTCFullYear();
  return !Number.isNaN(moment.getTime()) && year >= 1 && year <= 9999;
}
