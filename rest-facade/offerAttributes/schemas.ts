import { z } from '../zod.js';

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
