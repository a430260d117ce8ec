import { oneOf } from '../graphAnswer.js';
import { z } from '../zod.js';

/** An entry of a reference list, as the offers subgraph answers it. */
interface Labelled {
  id: string;
  label: string;
}

/**
 * The answer of a reference list: `[{id, label}]`, each id one of the contract's enum `ids`,
 * selected from the query field `field`.
 */
export function labelledList<Id extends string, Field extends string>(
  listName: string,
  itemName: string,
  ids: z.ZodEnum<Record<string, Id>>,
  field: Field,
) {
  return {
    status: 200 as const,
    description: 'The codes and their labels.',
    schema: z.array(z.object({ id: ids, label: z.string() }).openapi(itemName)).openapi(listName),
    select: (data: Record<Field, Labelled[]>) => data[field].map(({ id, label }) => ({ id: oneOf(ids, id), label })),
  };
}
