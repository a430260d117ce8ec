import { z } from '../zod.js';

/** A category as the offers subgraph describes it. */
export interface GraphCategory {
  id: string;
  conditionalFields: { name: string; mandatory: boolean }[];
  locationType: string | null;
}

/** `conditionalFields` of a category: field name -> mandatory on creation. */
export const conditionalFieldsAsMap = {
  schema: z.record(z.string(), z.boolean()).openapi({
    description: 'Category-related fields of the category, each mapped to whether it is mandatory on creation.',
    example: { author: false, musicType: true, performer: false },
  }),
  from(fields: { name: string; mandatory: boolean }[]): Record<string, boolean> {
    return Object.fromEntries(fields.map((field) => [field.name, field.mandatory]));
  },
};

/** The answer of a reference list: `[{id, label}]`, selected from the query field of that name. */
export function labelledList(listName: string, itemName: string, idSchema: z.ZodType, field: string) {
  return {
    status: 200 as const,
    description: 'The codes and their labels.',
    schema: z.array(z.object({ id: idSchema, label: z.string() }).openapi(itemName)).openapi(listName),
    select: (data: Record<string, unknown>) => data[field],
  };
}
