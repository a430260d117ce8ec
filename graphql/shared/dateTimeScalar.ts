import { GraphQLScalarType } from 'graphql';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { isoText } from '../../platform/time/moments.js';

const scalarsConfig = GraphQLDateTimeISO.toConfig();

/**
 * graphql-scalars' DateTimeISO, the scalar type-graphql gives a `Date` (same name, description,
 * reading of inputs), with one difference: a valid Date is written by `isoText`. Every date a
 * subgraph answers goes through here.
 */
export const DateTimeISO = new GraphQLScalarType({
  ...scalarsConfig,
  serialize: (value) =>
    value instanceof Date && !Number.isNaN(value.getTime()) ? isoText(value) : scalarsConfig.serialize(value),
});
