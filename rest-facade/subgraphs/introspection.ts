import { fileURLToPath } from 'node:url';
import { type GraphQLSchema, introspectionFromSchema } from 'graphql';
import { type IntrospectionResult, minifyIntrospection, preprocessIntrospection } from 'gql.tada/internal';
import type { SubgraphName } from '../../graphql/graph.js';

/**
 * The committed types of the subgraphs' schemas that gql.tada reads to type the facade's
 * documents: one file per subgraph, and one of the types every subgraph has. Written with the
 * supergraph (`npm run supergraph`); a test fails when a subgraph's file drifts from the code.
 */
export function introspectionPath(name: SubgraphName | 'common'): string {
  return fileURLToPath(new URL(`./${name}.introspection.d.ts`, import.meta.url));
}

/**
 * The types every subgraph's schema has, the same in each: GraphQL's String and Boolean, and
 * what Apollo Federation adds. Written once, in common.introspection.d.ts.
 */
const commonTypeNames = new Set([
  'Boolean',
  'String',
  '_Any',
  '_Service',
  'federation__FieldSet',
  'federation__Policy',
  'federation__Scope',
  'link__Import',
  'link__Purpose',
]);

function introspectionOf(name: SubgraphName, schema: GraphQLSchema): IntrospectionResult {
  // Named: gql.tada's multi-schema form, which declares no global default schema.
  return { ...minifyIntrospection(introspectionFromSchema(schema)), name };
}

/**
 * Some of the schema's types as gql.tada preprocesses them (the fastest form for tsc): an
 * object type, one schema type a line.
 */
function typesText(introspection: IntrospectionResult, keep: (typeName: string) => boolean): string {
  const types = introspection.__schema.types.filter((type) => keep(type.name));
  const text = preprocessIntrospection({ ...introspection, __schema: { ...introspection.__schema, types } });
  const start = text.indexOf('\n  types: {\n');
  if (start === -1 || !text.endsWith('\n};\n}')) throw new Error('gql.tada printed a schema in another layout');
  return text.slice(start + '\n  types: '.length, -';\n}'.length);
}

/** The comment a generated file starts with. */
function header(what: string): string {
  return `// ${what}, for gql.tada. Written by \`npm run supergraph\`: do not edit.\n`;
}

/** The text of common.introspection.d.ts, from any subgraph's schema. */
export function commonIntrospectionSource(name: SubgraphName, schema: GraphQLSchema): string {
  const types = typesText(introspectionOf(name, schema), (typeName) => commonTypeNames.has(typeName));
  return `${header("The types every subgraph's schema has")}\nexport type common_types = ${types};\n`;
}

/** The text of a subgraph's file: its own types, the common ones, and its root types. */
export function introspectionSource(name: SubgraphName, schema: GraphQLSchema): string {
  const introspection = introspectionOf(name, schema);
  const types = typesText(introspection, (typeName) => !commonTypeNames.has(typeName));
  const roots = preprocessIntrospection(introspection, 'introspection_types').replace(/\n */g, ' ');
  return [
    // Generated code is not held to the linter's rules (a union declares `fields: {}`).
    `/* eslint-disable */\n${header(`The ${name} subgraph's schema as a type`)}`,
    "import type { common_types } from './common.introspection.js';\n",
    `export type introspection_types = common_types & ${types};\n`,
    `export type introspection = ${roots};\n`,
  ].join('\n');
}
