/**
 * A text the graph answers, read as one of the contract's values. The graph types these
 * fields as String; the answer's schema allows only its enum, so a value outside it stops here,
 * by name, as the response parse would stop it.
 */
export function oneOf<const Value extends string>(
  allowed: { readonly options: readonly Value[] },
  value: string,
): Value {
  const found = allowed.options.find((option) => option === value);
  if (found === undefined) {
    throw new Error(`The graph answered ${JSON.stringify(value)}, not one of ${allowed.options.join(', ')}`);
  }
  return found;
}
