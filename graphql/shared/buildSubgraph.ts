import { buildSubgraphSchema } from '@apollo/subgraph';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import type { GraphQLSchema } from 'graphql';
import { gql } from 'graphql-tag';
import { buildSchemaSync, createResolversMap, type NonEmptyArray } from 'type-graphql';
import type { GraphContext } from './context.js';
import { DateTimeISO } from './dateTimeScalar.js';
import { resolveFieldsDirectly } from './directFieldResolvers.js';
import { checkArgumentsOnResolve, type InputRules } from './inputRules.js';
import { pageInputRule } from './pagination.js';

/** `__resolveReference` per entity type: how this subgraph loads an entity from its key. */
export type ReferenceResolvers = Record<
  string,
  { __resolveReference(reference: { id: number }, context: GraphContext): unknown }
>;

export interface SubgraphDefinition {
  name: string;
  // type-graphql takes resolver classes of any shape.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  resolvers: NonEmptyArray<Function>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  orphanedTypes?: Function[];
  references?: ReferenceResolvers;
  /** The rules of the subgraph's inputs, checked before its resolvers run (see inputRules.ts). */
  inputRules?: InputRules;
}

export interface Subgraph {
  name: string;
  schema: GraphQLSchema;
}

/** Rules of graphql/shared's input types, for every subgraph that takes them. */
const sharedInputRules: InputRules = { types: { PageInput: pageInputRule } };

const federationLink =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable", "@external", "@tag", "@inaccessible"])';

/**
 * type-graphql builds the schema from decorators; @apollo/subgraph turns its SDL into a
 * federation subgraph (adding _entities and _service) wired to the same resolvers.
 */
export function buildSubgraph(definition: SubgraphDefinition): Subgraph {
  const typeGraphqlSchema = buildSchemaSync({
    resolvers: definition.resolvers,
    orphanedTypes: definition.orphanedTypes,
    skipCheck: true,
    validate: false,
    scalarsMap: [{ type: Date, scalar: DateTimeISO }],
  });
  const resolvers = createResolversMap(typeGraphqlSchema) as Record<string, Record<string, unknown>>;
  resolveFieldsDirectly(resolvers, definition.resolvers);
  checkArgumentsOnResolve(typeGraphqlSchema, resolvers, definition.inputRules ?? {}, sharedInputRules, definition.name);
  for (const [typeName, reference] of Object.entries(definition.references ?? {})) {
    resolvers[typeName] = { ...resolvers[typeName], ...reference };
  }
  const schema = buildSubgraphSchema([
    {
      typeDefs: gql(`${federationLink}\n${printSchemaWithDirectives(typeGraphqlSchema)}`),
      // The resolver map type of @apollo/subgraph is narrower than type-graphql's output.
      resolvers: resolvers as never,
    },
  ]);
  return { name: definition.name, schema };
}
