import { registerEnumType } from 'type-graphql';

/**
 * A GraphQL enum whose values are exactly these strings, each its own name: the graph answers
 * the same text as a String did, and its clients (the REST facade's typed documents among
 * them) know every value it may take.
 */
export function graphEnum<const Value extends string>(
  name: string,
  values: readonly Value[],
  description?: string,
): { readonly [V in Value]: V } {
  const enumObject = Object.fromEntries(values.map((value) => [value, value])) as { [V in Value]: V };
  registerEnumType(enumObject, { name, description });
  return enumObject;
}
