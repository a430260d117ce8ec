/** A value with every Date in it turned into text, as `datesAsText` returns it. */
export type DatesAsText<T> = T extends Date
  ? string
  : T extends readonly (infer Item)[]
    ? DatesAsText<Item>[]
    : T extends object
      ? { [Key in keyof T]: DatesAsText<T[Key]> }
      : T;

/**
 * A parsed body as the graph takes it where its datetimes are String fields (offers, products,
 * collective offers): the schemas parse datetimes into Dates, those inputs take ISO 8601 text in
 * UTC. A DateTimeISO input takes the Date itself (GraphVariables).
 */
export function datesAsText<T>(value: T): DatesAsText<T> {
  // The walk below does what DatesAsText says; tsc cannot follow a recursive type through it.
  return textOf(value) as DatesAsText<T>;
}

// A plain loop: bodies of 2500 dates go through here, and entries/fromEntries allocated more than
// the rest of the walk (issue 19's profile of POST dates).
function textOf(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(textOf);
  if (value && typeof value === 'object') {
    const text: Record<string, unknown> = {};
    for (const key in value) text[key] = textOf((value as Record<string, unknown>)[key]);
    return text;
  }
  return value;
}
