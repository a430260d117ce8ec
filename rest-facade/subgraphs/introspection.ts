import { fileURLToPath } from 'node:url';
import { type GraphQLSchema, introspectionFromSchema } from 'graphql';
import { minifyIntrospection, outputIntrospectionFile } from 'gql.tada/internal';
import type { SubgraphName } from '../../graphql/graph.js';

/**
 * The committed type of a subgraph's schema that gql.tada reads to type the facade's documents.
 * Written with the supergraph (`npm run supergraph`); a test fails when it drifts from the code.
 */
export function introspectionPath(name: SubgraphName): string {
  return fileURLToPath(new URL(`./${name}.introspection.d.ts`, import.meta.url));
}

/** The file's text: the schema's introspection, preprocessed into a type (the fastest form for tsc). */
export function introspectionSource(name: SubgraphName, schema: GraphQLSchema): string {
  return outputIntrospectionFile(
    // Named: gql.tada's multi-schema form, which declares no global default schema.
    { ...minifyIntrospection(introspectionFromSchema(schema)), name },
    {
      fileType: '.d.ts',
      shouldPreprocess: true,
      // Generated code is not held to the linter's rules (it declares `{}` and an unused import).
      preamble: `/* eslint-disable */\n// The ${name} subgraph's schema as a type for gql.tada. Written by \`npm run supergraph\`: do not edit.\n`,
    },
  );
}
